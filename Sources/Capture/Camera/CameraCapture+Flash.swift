import Camera
import Imaging
import Flash
import ScanFlow
import Vision

extension CameraCapture {
    /// The flash half of a flash/no-flash pair (``Flash/FlashPair`` decides): the frame just
    /// taken is the no-flash one; light the LED, drop the frames that may have begun before it
    /// was lit, keep the next, switch off. Frame timestamps are the camera's clock, so the
    /// switch is placed conservatively at the next frame's time after the last frame seen.
    /// - Parameter region: where the document lies: the lit image is its crop too, and is
    ///   kept only if the document is still there (it may have been lifted meanwhile, or a
    ///   recording may have moved on).
    func flashImage(
        after frame: Frame, region: DocumentRegion?, finder: DocumentFinder?, source: any FrameSource, flash: Flash<ContinuousClock>, processor: inout FrameProcessor,
        report: @Sendable (CaptureEvent) -> Void
    ) async -> (jpeg: [UInt8], quality: DocumentQuality?)? {
        let period = source.mode?.interval.duration ?? .milliseconds(100)
        var pair = FlashPair(framePeriod: period, timeLimit: .seconds(2))
        var actions = pair.start(at: frame.timestamp) + pair.frameArrived(timestamp: frame.timestamp)
        var lastTimestamp = frame.timestamp
        var image: (jpeg: [UInt8], quality: DocumentQuality?)?
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
            if actions.contains(.keepFlashFrame), Self.stillThere(
                    region, in: lit, finder: finder, maximumCornerMotion: settings.documentGuidance.maximumCornerMotion, processor: &processor) {
                if let jpeg = try? processor.encode(lit, region: region) {
                    image = (jpeg, region.flatMap { try? processor.quality(lit, region: $0) })
                }
            }
            actions += pair.tick(now: lit.timestamp)
        }
        return image
    }

    /// Whether the document of `region` lies in `frame` where it lay (within twice the
    /// guidance's still limit); true without a region or finder (nothing to compare).
    static func stillThere(
        _ region: DocumentRegion?, in frame: Frame, finder: DocumentFinder?, maximumCornerMotion: Double, processor: inout FrameProcessor
    ) -> Bool {
        guard let region, let finder else { return true }
        guard let seen = try? processor.observeDocument(frame, finder: finder, learning: false).document else { return false }
        let limit = 2 * maximumCornerMotion * region.quadrilateral.diagonal
        return seen.quadrilateral.largestCornerMotion(from: region.quadrilateral) <= limit
    }
}
