import Foundation
import Imaging
import KioskTestKit
import Vision

/// `VisionBenchmark candidates FOLDER`: the locator's candidate groups of lines for every
/// still (`*.jpg`, not `*-platen.jpg`) of FOLDER, one JSON line a still, in the order the
/// locator reads them, each line as [x0, y0, x1, y1] in frame pixels, and whether the zone
/// read held every check digit. For looking at where the locator fails on the project's own
/// data (never the clean-room set's stills one by one). No MRZ text is printed.
enum CandidatesDump {
    static func run(_ folder: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") && !$0.contains("platen") }.sorted()
        guard let model = VisionCrops.model else {
            print("no MRZ model: make vision-models")
            return
        }
        let locator = MRZLocator(reader: MRZReader(model: model))
        let codec = JPEGCodec()
        for name in names {
            var image = LumaImage()
            try codec.decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))), into: &image)
            let groups = try locator.candidates(in: image)
            let found = try locator.locate(in: image)
            let g = groups.map { $0.map { [$0.start.x, $0.start.y, $0.end.x, $0.end.y] } }
            let object: [String: Any] = ["name": name, "groups": g, "read": found?.reading.allCheckDigitsHold ?? false]
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
        }
    }
}

