import Foundation
import Imaging
import KioskTestKit
import Vision

// The station's document analysis on the held-out generated scenes (never tuned on),
// against the field's usual OpenCV finder (Canny, contours, approxPolyDP) on the same
// frames, one core (OpenCV's thread pool is off). Figures, not pass/fail.

// `VisionBenchmark barcode` runs the PDF417 part alone, `VisionBenchmark paper` the paper
// documents' part (it needs only their data), `VisionBenchmark faces` the face part,
// `VisionBenchmark cleanroom` the MRZ found first on the clean-room stills, `VisionBenchmark
// field SPLIT...` the same on the field scenes' splits, `VisionBenchmark recordings` the
// time from a document lying still to its key on the recordings, `VisionBenchmark
// candidates FOLDER` the locator's candidate zones of each still (a diagnostic, own data only).
if CommandLine.arguments.dropFirst().first == "barcode" {
    print("==> PDF417 on cards' backs (docs/vision.md)")
    try BarcodeBenchmark.run()
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "paper" {
    try paperDocuments()
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "cleanroom" {
    try CleanroomBenchmark.run()
    try StationStillsBenchmark.run(
        stills: CleanroomBenchmark.folder + "/stills", title: "the clean-room stills (measurement only, never tuned on)")
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "recordings" {
    // The field scenes' recordings one by one (own data), the clean-room's only in sum.
    try RecordingsBenchmark.run(
        try RecordingsBenchmark.field(groups: ["train"]), title: "the field scenes' train recordings (tuned on)", detail: true)
    try RecordingsBenchmark.run(
        try RecordingsBenchmark.field(groups: ["heldout"]), title: "the field scenes' heldout recordings (never tuned on)", detail: true)
    try RecordingsBenchmark.run(
        try RecordingsBenchmark.cleanroom(), title: "the clean-room recordings (measurement only, never tuned on)", detail: false)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "field" {
    for split in CommandLine.arguments.dropFirst(2) {
        try CleanroomBenchmark.run(
            stills: CleanroomBenchmark.fieldFolder(split), missing: "make field-data-all",
            title: "the field scenes' \(split) split (the project's own generator\(split == "train" ? ", tuned on" : ", never tuned on"))")
        try StationStillsBenchmark.run(stills: CleanroomBenchmark.fieldFolder(split), title: "the field scenes' \(split) split")
    }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "stations" {
    guard CommandLine.arguments.count == 3, !CommandLine.arguments[2].contains("cleanroom") else {
        print("usage: VisionBenchmark stations FOLDER (own data only: the clean-room stills are measured, never looked at one by one)")
        exit(2)
    }
    StationStillsBenchmark.detail = true
    try StationStillsBenchmark.run(stills: CommandLine.arguments[2], title: CommandLine.arguments[2])
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "candidates" {
    guard CommandLine.arguments.count == 3 else {
        print("usage: VisionBenchmark candidates FOLDER")
        exit(2)
    }
    try CandidatesDump.run(CommandLine.arguments[2])
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "faces" {
    print("==> faces (docs/faces.md)")
    try await FaceBenchmark.run()
    exit(0)
}

// Pages of print (the document journey's paper documents): their own data set.
func paperDocuments() throws {
    if let paper = VisionDataSet.paper() {
        for split in [VisionDataSet.Split.heldout, .sealed] {
            let pages = try PageEvaluation.run(paper, split: split)
            print("==> paper documents: pages (A4, Letter) on the \(split) scenes (\(pages.scenes) scenes, templates and backgrounds never tuned on)")
            for line in pages.summary { print("  \(line)") }
            print(String(
                format: "  time per frame, one core: ours median %.2f ms, p95 %.2f ms; baseline median %.2f ms, p95 %.2f ms (1920x1080 and 2560x1440)",
                pages.ours.percentileMilliseconds(0.5), pages.ours.percentileMilliseconds(0.95), pages.baseline.percentileMilliseconds(0.5),
                pages.baseline.percentileMilliseconds(0.95)))
        }
    } else {
        print("==> paper documents: no data (\(VisionDataSet.paperMissing))")
    }
}

guard let data = VisionDataSet() else {
    print("no vision data: \(VisionDataSet.missing)")
    exit(1)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

let evaluation = try DocumentEvaluation.run(data, split: .heldout)
print("==> document finding on the held-out scenes (\(evaluation.scenes) scenes, backgrounds and page designs never tuned on)")
for line in evaluation.summary { print("  ours: \(line)") }

// The baseline on the same frames: corners and time.
var baselineFound = 0, baselineWhole = 0
var baselineJaccard: [Double] = []
var ours: [Int: [Double]] = [:], baseline: [Int: [Double]] = [:]
var finders: [String: DocumentFinder] = [:]
for scene in try data.scenes(.heldout) {
    let image = try data.luma(scene)
    let finder = try data.finder(for: scene, finders: &finders)
    // Three runs each, the fastest kept: timing, not warm-up, is measured.
    var bestOurs = Double.infinity, bestBaseline = Double.infinity
    var found: Quadrilateral?
    for _ in 0..<3 {
        let start = ContinuousClock.now
        _ = try finder.observe(image)
        bestOurs = min(bestOurs, milliseconds(ContinuousClock.now - start))
        let baselineStart = ContinuousClock.now
        found = try DocumentFinder.baselineQuadrilateral(in: image)
        bestBaseline = min(bestBaseline, milliseconds(ContinuousClock.now - baselineStart))
    }
    ours[scene.width, default: []].append(bestOurs)
    baseline[scene.width, default: []].append(bestBaseline)
    if let truth = scene.corners, scene.whole, scene.documentClass != nil {
        baselineWhole += 1
        if let found {
            baselineFound += 1
            baselineJaccard.append(found.jaccardIndex(with: truth))
        }
    }
}
let baselineMean = baselineJaccard.isEmpty ? 0 : baselineJaccard.reduce(0, +) / Double(baselineJaccard.count)
print(String(
    format: "  baseline: whole documents %d, found %.1f %%; Jaccard mean %.3f, >= 0.95 for %.1f %% of them", baselineWhole,
    Double(baselineFound) * 100 / Double(max(1, baselineWhole)), baselineMean,
    Double(baselineJaccard.filter { $0 >= 0.95 }.count) * 100 / Double(max(1, baselineWhole))))
print("==> time per frame, one core (target: at most 10 ms at 1280x720)")
for width in ours.keys.sorted() {
    let size = width == 1920 ? "1920x1080" : "1280x720"
    print(String(
        format: "  %@: ours median %.2f ms, p95 %.2f ms; baseline median %.2f ms, p95 %.2f ms (%d frames)", size, median(ours[width]!),
        percentile(ours[width]!, 0.95), median(baseline[width]!), percentile(baseline[width]!, 0.95), ours[width]!.count))
}

try paperDocuments()

print("==> MRZ reading on the held-out crops (ours against Tesseract, one core)")
try MRZBenchmark.run()
print("==> time from a page placed to a chip key, generated recordings at 15 fps (target: under 1.5 s)")
try MRZBenchmark.timeToKey(data)

print("==> faces (docs/faces.md)")
try await FaceBenchmark.run()
