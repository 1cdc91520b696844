import Foundation
public import Imaging
import Synchronization

/// A simulated camera facing a simulated person, whose frames answer the station's LED: each
/// frame is drawn from a pose rendered twice by scripts/face-data (docs/face-data.md), once
/// in the room's light and once with the LED's light alone, and the two are added when the
/// LED is lit at the moment the frame is made. So the light challenge of the liveness loop
/// runs end to end through the station loop, which a recording (that cannot know the LED's
/// random sequence in advance) cannot do.
///
/// The person sways slightly and turns their head when asked (``turnHead(toward:)``; the
/// station's capture passes its prompt on, as a person reads the screen). The presentation
/// is a live face (`genuine`), a print held up (`print`) or a screen showing the face
/// (`screen`), as rendered.
///
/// Like a UVC camera left to itself, it has automatic exposure, metered on the middle of the
/// frame where the face is (as webcams do): each frame's gain moves half-way towards the
/// gain that brings that region's brightness back to the room's, so a lit LED is made up
/// for within a few frames, unless the exposure is held
/// (``ExposureHolding``), as the liveness loop does for its light challenge.
///
/// The folder is the station assets of scripts/face-data (`manifest.json` and the poses'
/// PNGs); `person.json` beside the manifest may name `{"identity": ..., "presentation": ...}`.
public final class LitFaceCamera<C: Clock>: FrameSource where C.Duration == Duration {
    public let folder: String
    public let identity: String
    public let presentation: String
    public private(set) var mode: CaptureMode?
    public private(set) var statistics = StreamStatistics()

    private let clock: C
    private let light: @Sendable () async -> Bool
    private let poses: [Pose]
    private let sway: [Int]
    /// The poses of the head turn (not of the sway), by yaw.
    private let turning: [Int]
    private let width: Int
    private let height: Int
    private var startInstant: C.Instant?
    private var index = 0
    private let head = Mutex<Double?>(nil)
    /// Automatic exposure: the gain of the last frame, and whether it is held still.
    private var gain = 1.0
    private let held = Mutex(false)
    /// Whether the camera adjusts its exposure by itself (a camera without: false).
    public let automaticExposure: Bool
    /// Frames made with the LED lit while the automatic exposure was free to make up for it.
    public private(set) var litFramesWithFreeExposure = 0
    /// The yaw shown last, in the manifest's degrees (positive: the nose to the image's right).
    private var yaw = 0.0
    /// A camera's noise, about ±2 levels: a fixed sequence read from a new place each frame.
    private let noise: [Int8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<65_521).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int8(Int(state >> 61) - 3)
        }
    }()

    struct Pose {
        var yaw: Double
        var ambient: [UInt8]
        var led: [UInt8]
        /// The mean of `ambient`'s samples: the brightness automatic exposure aims at.
        var ambientMean: Double
    }

    private struct Manifest: Decodable {
        var size: [Int]
        var sway: [String]
        var identities: [String: Identity]

        struct Identity: Decodable {
            var presentations: [String: [Entry]]
        }

        struct Entry: Decodable {
            var pose: String
            var yaw_deg: Double
            var ambient: String
            var led: String
        }
    }

    private struct Person: Decodable {
        var identity: String?
        var presentation: String?
    }

    /// Whether `folder` holds the assets of this camera.
    public static func isAssets(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/manifest.json")
    }

    /// - Parameters:
    ///   - light: whether the LED is lit now (asked as each frame is made).
    ///   - identity, presentation: override `person.json` (and its defaults: the first
    ///     identity by name, `genuine`).
    /// - Throws: `.badFile` when the manifest or an image is missing or unreadable.
    public init(
        folder: String, identity: String? = nil, presentation: String? = nil, framesPerSecond: UInt32 = 15, clock: C,
        automaticExposure: Bool = true, light: @escaping @Sendable () async -> Bool
    ) throws(CameraError) {
        self.folder = folder
        self.automaticExposure = automaticExposure
        self.clock = clock
        self.light = light
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json")))
        } catch {
            throw CameraError(kind: .badFile, message: "\(folder)/manifest.json cannot be read: \(error)")
        }
        let person = (try? JSONDecoder().decode(Person.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/person.json"))))
        let chosen = identity ?? person?.identity ?? manifest.identities.keys.sorted().first ?? ""
        let shown = presentation ?? person?.presentation ?? "genuine"
        guard manifest.size.count == 2, let entries = manifest.identities[chosen]?.presentations[shown], !entries.isEmpty else {
            throw CameraError(kind: .badFile, message: "\(folder)/manifest.json has no \(chosen)/\(shown)")
        }
        self.identity = chosen
        self.presentation = shown
        width = manifest.size[0]
        height = manifest.size[1]
        var poses: [Pose] = []
        var names: [String] = []
        for entry in entries {
            let ambient = try Self.rgb(folder + "/" + entry.ambient, width: width, height: height)
            let led = try Self.rgb(folder + "/" + entry.led, width: width, height: height)
            poses.append(Pose(yaw: entry.yaw_deg, ambient: ambient, led: led, ambientMean: Self.meteredMean(ambient, width: width, height: height)))
            names.append(entry.pose)
        }
        self.poses = poses
        let sway = manifest.sway.compactMap { names.firstIndex(of: $0) }
        self.sway = sway
        turning = poses.indices.filter { !sway.contains($0) }.sorted { poses[$0].yaw < poses[$1].yaw }
        mode = CaptureMode(format: .rgb24, width: width, height: height, interval: FrameInterval(fps: framesPerSecond))
    }

    private static func rgb(_ path: String, width: Int, height: Int) throws(CameraError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CameraError(kind: .badFile, message: "\(path) is missing") }
        do {
            let image = try PNGCodec.decodeRGB([UInt8](data))
            guard image.width == width, image.height == height else {
                throw CameraError(kind: .badFile, message: "\(path) is \(image.width)x\(image.height), not \(width)x\(height)")
            }
            return image.pixels
        } catch let error as CameraError {
            throw error
        } catch {
            throw CameraError(kind: .badFile, message: "\(path) cannot be decoded: \(error)")
        }
    }

    /// Asks the person to turn their head until the yaw is `degrees` (the nose to the image's
    /// right when positive), or back to their slight sway (nil).
    public func turnHead(toward degrees: Double?) {
        head.withLock { $0 = degrees }
    }

    public func start() async throws(CameraError) {
        if startInstant == nil {
            startInstant = clock.now
            index = 0
        }
    }

    public func nextFrame(timeout: Duration) async throws(CameraError) -> Frame {
        guard let start = startInstant, let mode else { throw CameraError(kind: .notStreaming, message: "\(folder) is not started") }
        let due = start.advanced(by: mode.interval.duration * index)
        let now = clock.now
        if now.duration(to: due) > timeout {
            statistics.timeouts += 1
            throw CameraError(kind: .timeout, message: "\(folder): next frame not due within \(timeout)")
        }
        do {
            try await clock.sleep(until: due, tolerance: nil)
        } catch {
            throw CameraError(kind: .notStreaming, message: "\(folder): cancelled while waiting for a frame")
        }
        let pose = poses[nextPose()]
        let lit = await light()
        var bytes = pose.ambient
        let offset = (index &* 7_919) % noise.count
        bytes.withUnsafeMutableBufferPointer { out in
            pose.led.withUnsafeBufferPointer { led in
                noise.withUnsafeBufferPointer { noise in
                    var k = offset
                    for i in out.indices {
                        out[i] = UInt8(clamping: Int(out[i]) + (lit ? Int(led[i]) : 0) + Int(noise[k]))
                        k = k + 1 == noise.count ? 0 : k + 1
                    }
                }
            }
        }
        if automaticExposure {
            let isHeld = held.withLock { $0 }
            if lit && !isHeld { litFramesWithFreeExposure += 1 }
            if !isHeld {
                let mean = Self.meteredMean(bytes, width: width, height: height)
                if mean > 1 { gain += (pose.ambientMean / mean - gain) * 0.5 }
            }
            if abs(gain - 1) > 0.002 {
                let gain = self.gain
                bytes.withUnsafeMutableBufferPointer { out in
                    for i in out.indices { out[i] = UInt8(clamping: Int(Double(out[i]) * gain + 0.5)) }
                }
            }
        }
        let sequence = UInt32(truncatingIfNeeded: index)
        index += 1
        statistics.record(sequence: sequence)
        return Frame(format: .rgb24, width: width, height: height, sequence: sequence, timestamp: mode.interval.duration * Int(sequence), bytes: bytes)
    }

    public func stop() {
        startInstant = nil
    }

    /// The brightness automatic exposure meters: the mean of the middle half of the RGB
    /// frame (a quarter of its area), every third pixel of every third row.
    public static func meteredMean(_ bytes: [UInt8], width: Int, height: Int) -> Double {
        var sum = 0, count = 0
        for y in stride(from: height / 4, to: height * 3 / 4, by: 3) {
            for x in stride(from: width / 4, to: width * 3 / 4, by: 3) {
                let i = (y * width + x) * 3
                guard i + 2 < bytes.count else { continue }
                sum += Int(bytes[i]) + Int(bytes[i + 1]) + Int(bytes[i + 2])
                count += 3
            }
        }
        return count == 0 ? 0 : Double(sum) / Double(count)
    }

    /// The pose of the next frame: towards the asked yaw (or back to frontal) one turning pose
    /// every second frame; once frontal and not asked, the sway path back and forth, a pose
    /// every third frame.
    private func nextPose() -> Int {
        let target = head.withLock { $0 }
        if !turning.isEmpty, target != nil || abs(yaw) > 0.5 {
            let steps = turning.map { poses[$0].yaw }
            func nearest(_ value: Double) -> Int { steps.indices.min { abs(steps[$0] - value) < abs(steps[$1] - value) }! }
            let current = nearest(yaw), wanted = nearest(target ?? 0)
            let next = index % 2 == 0 ? current + (wanted > current ? 1 : wanted < current ? -1 : 0) : current
            yaw = steps[next]
            return turning[next]
        }
        guard !sway.isEmpty else { return poses.indices.min { abs(poses[$0].yaw) < abs(poses[$1].yaw) }! }
        let period = 2 * sway.count - 2
        let step = (index / 3) % max(1, period)
        return sway[step < sway.count ? step : period - step]
    }
}

/// A camera whose subject can be asked to turn their head (a simulation).
public protocol HeadTurning: AnyObject {
    func turnHead(toward degrees: Double?)
}

extension LitFaceCamera: HeadTurning {}

extension LitFaceCamera: ExposureHolding {
    /// Holds the simulated automatic exposure at its gain, as switching a UVC camera's
    /// exposure to manual keeps the value it reached.
    public func holdExposure() -> ExposureHold {
        guard automaticExposure, !held.withLock({ $0 }) else { return ExposureHold() }
        held.withLock { $0 = true }
        return ExposureHold(restore: [.autoExposure: 3])
    }

    public func release(_ hold: ExposureHold) {
        guard hold.restore[.autoExposure] != nil else { return }
        held.withLock { $0 = false }
    }

    /// Whether the exposure is held now (for tests).
    public var isExposureHeld: Bool { held.withLock { $0 } }
}
