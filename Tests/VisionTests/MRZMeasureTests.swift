import Foundation
import Imaging
import KioskTestKit
import MRTD
import Testing
import Vision

/// The MRZ reader on the generated crops: exact lines, exact zones, right keys, and
/// wrong keys that pass every check digit. Figures print without any MRZ text.
@Suite("MRZ reader on the generated crops", .serialized)
struct MRZMeasureTests {
    struct Figures {
        var crops = 0, withMRZ = 0, lines = 0, exactLines = 0, exactZones = 0, keysRight = 0, wrongKeysPassing = 0
        var foundWithoutMRZ = 0, withoutMRZ = 0
        var milliseconds = 0.0

        var summary: String {
            func percent(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : String(format: "%.1f%%", 100 * Double(a) / Double(b)) }
            return "\(crops) crops (\(withMRZ) with an MRZ): exact lines \(percent(exactLines, lines)), exact MRZ \(percent(exactZones, withMRZ)), "
                + "key right \(percent(keysRight, withMRZ)), wrong keys passing every check digit \(wrongKeysPassing), "
                + "MRZ found on \(foundWithoutMRZ)/\(withoutMRZ) crops without one, "
                + String(format: "%.1f ms per crop", milliseconds / Double(max(1, crops)))
        }
    }

    static func key(_ lines: [String]) -> MRZKey? { (try? MRZ(lines.joined(separator: "\n")))?.key }

    static func measure(_ split: String, reader: MRZReader) throws -> Figures {
        var figures = Figures()
        let clock = ContinuousClock()
        for crop in try VisionCrops.crops(split) {
            figures.crops += 1
            let start = clock.now
            let reading = reader.read(crop.image)
            let elapsed = clock.now - start
            figures.milliseconds += Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            guard let truth = crop.mrz else {
                figures.withoutMRZ += 1
                if reading != nil { figures.foundWithoutMRZ += 1 }
                continue
            }
            figures.withMRZ += 1
            figures.lines += truth.count
            let text = reading?.text ?? []
            figures.exactLines += zip(text, truth).filter { $0 == $1 }.count
            if text == truth { figures.exactZones += 1 }
            if let reading, reading.allCheckDigitsHold, let read = Self.key(text) {
                if read == Self.key(truth) { figures.keysRight += 1 } else { figures.wrongKeysPassing += 1 }
            }
        }
        return figures
    }

    /// Dev: the split the reader was tuned on. The thresholds are below what was measured
    /// there (docs/vision-models.md gives the figures).
    @Test(.enabled(if: VisionCrops.hasModel, "no MRZ model: run `make vision-models`"),
          .enabled(if: VisionCrops.hasCrops("dev"), "no dev crops: run `/usr/bin/python3 scripts/vision-data/generate.py`"))
    func devCrops() async throws {
        let model = try #require(VisionCrops.model)
        let figures = try await onOwnThread { try Self.measure("dev", reader: MRZReader(model: model)) }
        print("MRZ reader, dev: \(figures.summary)")
        #expect(figures.wrongKeysPassing == 0)
        #expect(figures.foundWithoutMRZ == 0)
        // Measured on dev with the generator of 2026-11-24: 99.7% of lines, 99.2% of keys.
        #expect(Double(figures.exactLines) >= 0.98 * Double(figures.lines))
        #expect(Double(figures.keysRight) >= 0.97 * Double(figures.withMRZ))
    }

    /// Held out: measured and reported, never tuned on; only the wrong-key rule is enforced.
    @Test(.enabled(if: VisionCrops.hasModel, "no MRZ model: run `make vision-models`"),
          .enabled(if: VisionCrops.hasCrops("heldout"), "no held-out crops: run `/usr/bin/python3 scripts/vision-data/generate.py`"))
    func heldoutCrops() async throws {
        let model = try #require(VisionCrops.model)
        let figures = try await onOwnThread { try Self.measure("heldout", reader: MRZReader(model: model)) }
        print("MRZ reader, heldout: \(figures.summary)")
        #expect(figures.wrongKeysPassing == 0)
    }
}
