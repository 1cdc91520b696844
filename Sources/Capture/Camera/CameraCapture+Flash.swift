import Camera
import Imaging
import Flash
import ScanFlow

extension CameraCapture {
    /// The flash half of a flash/no-flash pair (``Flash/FlashPair`` decides): the frame just
    /// taken is the no-flash one; light the LED, drop the frames that may have begun before it
    /// was lit, keep the next, switch off. Frame timestamps are the camera's clock, so the
    /// switch is placed conservatively at the next frame's time after the last frame seen.
    func flashImage(
        after frame: Frame, source: any FrameSource, flash: Flash<ContinuousClock>, processor: inout FrameProcessor,
        report: @Sendable (CaptureEvent) -> Void
    ) async -> [UInt8]? {
        let period = source.mode?.interval.duration ?? .milliseconds(100)
        var pair = FlashPair(framePeriod: period, timeLimit: .seconds(2))
        var actions = pair.start(at: frame.timestamp) + pair.frameArrived(timestamp: frame.timestamp)
        var lastTimestamp = frame.timestamp
        var image: [UInt8]?
        while !pair.isFinished {
            var next: [FlashPair.Action] = []
            for action in actions {
                switch action {
                case .switchFlash(let state):
                    do {
                        if state == .on { try await flash.on() } else { try await flash.off() }
                    } catch {
                        logger.warning("flash failed; the document is captured without it", metadata: ["error": "\(error)"])
                        try? await flash.off()
                        return nil
                    }
                    report(.update(.flash(state.scanState)))
                    next += pair.flashSwitched(state, at: lastTimestamp + period)
                case .keepFlashFrame:
                    break
                case .dropFrame, .keepNoFlashFrame, .completed, .failed:
                    break
                }
            }
            actions = next
            if pair.isFinished { break }
            if !actions.isEmpty { continue }
            guard let lit = try? await source.nextFrame(timeout: settings.frameTimeout) else {
                try? await flash.off()
                report(.update(.flash(.off)))
                return nil
            }
            lastTimestamp = lit.timestamp
            actions = pair.frameArrived(timestamp: lit.timestamp)
            if actions.contains(.keepFlashFrame) { image = try? processor.encode(lit) }
            actions += pair.tick(now: lit.timestamp)
        }
        return image
    }
}
