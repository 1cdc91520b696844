import Foundation
import KioskTestKit
import Vision

/// The PDF417 on North American cards' backs (docs/vision.md "Barcode"): the station's way
/// (the document finder's card, its perspective-corrected crop read by ZXing-C++) against
/// the field's library on the whole frame (ZXing-C++ with its default hints: try harder,
/// rotated, downscaled), on the same generated frames, both splits, held-out apart.
enum BarcodeBenchmark {
    static func run() throws {
        guard let data = BarcodeDataSet() else {
            print("no barcode data: \(BarcodeDataSet.missing)")
            return
        }
        print("ZXing-C++ \(PDF417Reader.libraryVersion)")
        for split in BarcodeDataSet.Split.allCases {
            let evaluation = try BarcodeEvaluation.run(data, split: split)
            print("  \(split.rawValue): \(evaluation.pipeline.backs) backs, \(evaluation.pipeline.fronts) fronts (no barcode); the finder found no card on \(evaluation.notFound) backs")
            for (name, counts) in [("station (finder + crop)", evaluation.pipeline), ("ZXing, whole frame    ", evaluation.wholeFrame)] {
                print(String(
                    format: "    %@  decoded %3d/%3d (%5.1f %%)  wrong %d  on fronts %d  per frame: median %6.1f ms, mean %6.1f ms",
                    name, counts.decoded, counts.backs, counts.rate * 100, counts.wrong, counts.phantom, counts.medianMilliseconds,
                    counts.meanMilliseconds))
                print("      by scene: " + counts.byKind.keys.sorted().map { "\($0) \(counts.byKind[$0]!.decoded)/\(counts.byKind[$0]!.backs)" }.joined(separator: ", "))
            }
        }
    }
}
