import CTesseract
import Camera
import Capture
import Foundation
import Imaging
import KioskTestKit
import MRTD
import ScanFlow
import Vision

/// The MRZ reader against Tesseract's `eng` model with an MRZ whitelist, on the same
/// held-out crops (the bottom 35 % of each, where the zone is, for Tesseract), one core.
enum MRZBenchmark {
    struct Figures {
        var zones = 0
        var exactLines = 0
        var lines = 0
        var keysRight = 0
        /// Keys that passed every check digit and are not the document's.
        var wrongKeys = 0
        var milliseconds: [Double] = []

        func line(_ name: String) -> String {
            String(
                format: "  %@: %d zones; exact lines %.1f %%, right key %.1f %%, wrong keys passing every check digit %d; median %.1f ms a crop",
                name, zones, Double(exactLines) * 100 / Double(max(1, lines)), Double(keysRight) * 100 / Double(max(1, zones)), wrongKeys,
                median(milliseconds))
        }
    }

    static func run() throws {
        guard let model = VisionCrops.model, VisionCrops.hasCrops("heldout") else {
            print("  no MRZ model or crops: make vision-models vision-data")
            return
        }
        let reader = MRZReader(model: model)
        let crops = try VisionCrops.crops("heldout").filter { $0.mrz != nil }
        var ours = Figures(), tesseract = Figures()
        setenv("OMP_THREAD_LIMIT", "1", 1)
        let api = TessBaseAPICreate()
        defer { TessBaseAPIDelete(api) }
        guard TessBaseAPIInit3(api, "/usr/share/tesseract-ocr/5/tessdata", "eng") == 0 else {
            print("  Tesseract's eng model is missing (tesseract-ocr-eng)")
            return
        }
        TessBaseAPISetVariable(api, "tessedit_char_whitelist", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<")
        TessBaseAPISetPageSegMode(api, PSM_SINGLE_BLOCK)
        for crop in crops {
            let truth = crop.mrz!
            let start = ContinuousClock.now
            let reading = reader.read(crop.image)
            ours.milliseconds.append(milliseconds(ContinuousClock.now - start))
            score(reading.map(\.text), truth: truth, into: &ours)

            let top = crop.image.height * 65 / 100
            let band = Array(crop.image.pixels[(top * crop.image.width)...])
            let tessStart = ContinuousClock.now
            let text: String = band.withUnsafeBufferPointer { p in
                TessBaseAPISetImage(api, p.baseAddress, Int32(crop.image.width), Int32(crop.image.height - top), 1, Int32(crop.image.width))
                guard let raw = TessBaseAPIGetUTF8Text(api) else { return "" }
                defer { TessDeleteText(raw) }
                return String(cString: raw)
            }
            tesseract.milliseconds.append(milliseconds(ContinuousClock.now - tessStart))
            let length = truth[0].count
            let lines = text.split(whereSeparator: \.isNewline).map { $0.filter { !$0.isWhitespace } }.filter { $0.count >= length - 4 }
            score(lines.count >= truth.count ? Array(lines.suffix(truth.count)) : nil, truth: truth, into: &tesseract)
        }
        print(ours.line("ours"))
        print(tesseract.line("Tesseract eng, MRZ whitelist"))
        print(String(format: "  ours is %.0fx faster", median(tesseract.milliseconds) / max(0.001, median(ours.milliseconds))))
    }

    static func score(_ lines: [String]?, truth: [String], into figures: inout Figures) {
        figures.zones += 1
        figures.lines += truth.count
        guard let lines else { return }
        figures.exactLines += zip(lines, truth).filter { $0 == $1 }.count
        guard let key = ChipAccessKey(lines) else { return }
        if key == ChipAccessKey(truth) { figures.keysRight += 1 } else { figures.wrongKeys += 1 }
    }

    /// Time from a page placed on the platen to a chip key the station would take, in a
    /// generated recording at 15 fps: each frame through the finder, the reader and the
    /// frames' agreement, as the station runs them.
    static func timeToKey(_ data: VisionDataSet) throws {
        guard let model = VisionCrops.model else { return }
        let reader = MRZReader(model: model)
        for name in ["td3-slide-in", "td1-back-slide-in", "td3-tilt-corrected"] {
            let truth = try JSONDecoder().decode(
                [SequenceFrame?].self, from: Data(contentsOf: URL(fileURLWithPath: data.root + "/sequences/\(name).json")))
            // Placed: the first frame the whole document is in view (still moving, blurred).
            guard let placed = truth.firstIndex(where: { $0?.whole == true }) else { continue }
            let frames = MJPEG.split([UInt8](try Data(contentsOf: URL(fileURLWithPath: data.sequence(name)))))
            let finder = try DocumentFinder(settings: VisionDataSet.finderSettings)
            var consensus = MRZConsensus()
            var luma = LumaImage()
            let codec = JPEGCodec()
            var keyAt: Int?
            var work: [Double] = []
            for (index, jpeg) in frames.enumerated() {
                try codec.decodeLuma(jpeg, into: &luma)
                let start = ContinuousClock.now
                let observation = try finder.observe(luma, learning: true)
                if let document = observation.document, document.whole, document.pose.tiltDegrees <= 15 {
                    consensus.add(reader.read(try DocumentFinder.crop(luma, document.quadrilateral, as: document.documentClass)))
                }
                work.append(milliseconds(ContinuousClock.now - start))
                if consensus.nextKey != nil {
                    keyAt = index
                    break
                }
            }
            let seconds = keyAt.map { Double($0 - placed) / 15 }
            print(String(
                format: "  %@: placed at frame %d, key at %@ (%@ after placed); analysis median %.1f ms, slowest %.1f ms a frame (a frame lasts 66.7 ms)", name,
                placed, keyAt.map { "frame \($0)" } ?? "none", seconds.map { String(format: "%.2f s", $0) } ?? "-", median(work), work.max() ?? 0))
        }
    }

    struct SequenceFrame: Decodable {
        var whole: Bool
        var blur_px: Double?
    }
}

extension ChipAccessKey {
    /// The key an MRZ's lines make, if they parse with every check digit.
    init?(_ lines: [String]) {
        guard let mrz = try? MRZ(lines.joined()) else { return nil }
        self = .mrz(documentNumber: mrz.documentNumber, dateOfBirth: mrz.birthDate, dateOfExpiry: mrz.expiryDate)
    }
}
