import Camera
import Foundation
import Imaging
public import Vision

/// The liveness checks run over a split of the generated sequences (docs/face-data.md), each
/// frame through the face detector and the analyzer with the LED's recorded state: what the
/// held-out test asserts and `make bench` prints.
public struct LivenessEvaluation: Sendable {
    /// Per kind (`genuine`, `print`, `screen`, `replay`): sequences taken as live, and in all.
    public var taken: [String: (live: Int, total: Int)] = [:]
    /// Milliseconds of `LivenessAnalyzer.result()` per sequence (the checks after the frames).
    public var decisionMilliseconds: [Double] = []

    /// BPCER: the part of live presentations not taken as live.
    public var bpcer: Double {
        guard let genuine = taken["genuine"], genuine.total > 0 else { return 1 }
        return Double(genuine.total - genuine.live) / Double(genuine.total)
    }

    /// APCER of one attack kind: the part of its presentations taken as live.
    public func apcer(_ kind: String) -> Double {
        guard let attack = taken[kind], attack.total > 0 else { return 1 }
        return Double(attack.live) / Double(attack.total)
    }

    private struct Truth: Decodable {
        var kind: String
        var led: [Int]
    }

    /// - Parameter every: take every n-th sequence of each kind (1: all of them).
    public static func run(_ data: FaceData, split: String, models: FaceModels, every: Int = 1, settings: LivenessAnalyzer.Settings = .init()) throws -> LivenessEvaluation {
        var evaluation = LivenessEvaluation()
        let detector = try FaceDetector(models: models)
        let codec = JPEGCodec()
        var luma = LumaImage()
        for (index, sequence) in data.livenessSequences(split).enumerated() where index % max(1, every) == 0 {
            let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: sequence.truth)))
            let frames = MJPEG.split([UInt8](try Data(contentsOf: URL(fileURLWithPath: sequence.recording))))
            var analyzer = LivenessAnalyzer(settings: settings)
            for (index, jpeg) in frames.enumerated() where index < truth.led.count {
                try codec.decodeLuma(jpeg, into: &luma)
                guard let face = try detector.observe(luma).face else { continue }
                analyzer.add(luma, face: face, lit: truth.led[index] == 1)
            }
            let start = ContinuousClock.now
            let live = analyzer.result().decision == .live
            let elapsed = ContinuousClock.now - start
            evaluation.decisionMilliseconds.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            analyzer.wipe()
            evaluation.taken[truth.kind, default: (0, 0)].live += live ? 1 : 0
            evaluation.taken[truth.kind, default: (0, 0)].total += 1
        }
        return evaluation
    }
}
