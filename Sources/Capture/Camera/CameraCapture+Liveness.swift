import Camera
import KioskTime
import Imaging
import ScanFlow
import Vision

extension CameraCapture {
    /// The most liveness frames uploaded (`LIVENESS_0` … `LIVENESS_99`).
    static let maximumLivenessFrames = 100

    /// The liveness capture loop (``FaceLivenessCapture``): guidance, the LED's random
    /// challenge, the requested head turn, the checks; then the best face image, the frames
    /// and the record of the challenge as evidence. The LED is off whenever this returns.
    func runLiveness(
        source: any FrameSource, request: CaptureRequest, models: FaceModels, report: @escaping @Sendable (CaptureEvent) -> Void
    ) async {
        let detector: FaceDetector
        do {
            detector = try FaceDetector(settings: settings.faceDetector, models: models)
        } catch {
            report(.lost(reason: "face analysis cannot start: \(error)"))
            return
        }
        var loop = FaceLivenessCapture(settings: .init(guidance: settings.faceGuidance, liveness: settings.liveness))
        var processor = FrameProcessor(jpegQuality: settings.jpegQuality, previewWidth: settings.previewWidth)
        defer {
            loop.wipe()
            processor.wipe()
        }
        let stopwatch = Stopwatch(clock)
        let previewInterval = Duration.milliseconds(1000 / max(1, settings.previewFramesPerSecond))
        var lastPreview = Duration.zero - .seconds(1)
        var best: [UInt8]?
        var frames: [LivenessEvidence.FrameInfo] = []
        // The camera's automatic exposure, gain and white balance are held still from the
        // challenge's first light to the end: else they make up for the LED in a few frames.
        var hold: ExposureHold?
        defer { if let hold { (source as? any ExposureHolding)?.release(hold) } }
        report(.started)
        while !Task.isCancelled {
            let frame: Frame
            do {
                frame = try await source.nextFrame(timeout: settings.frameTimeout)
            } catch {
                await lightOff()
                if Task.isCancelled { return }
                report(.lost(reason: "\(error.message)"))
                return
            }
            let now = stopwatch.elapsed
            publishPreview(frame, now: now, interval: previewInterval, last: &lastPreview, processor: &processor)
            let observation: FaceObservation
            let luma: LumaImage
            do {
                (observation, luma) = try processor.observeFaces(frame, detector: detector)
            } catch {
                logger.warning("frame could not be analysed", metadata: ["error": "\(error)"])
                continue
            }
            let phase = loop.phase
            let ledIsOn = await flash?.isOn
            for action in loop.frame(observation, luma: luma, at: now, ledIsOn: ledIsOn) {
                switch action {
                case .report(let update):
                    report(.update(update))
                    if case .extractionState(let state) = update { follow(state, source: source) }
                case .light(let on):
                    if hold == nil, let camera = source as? any ExposureHolding {
                        let held = camera.holdExposure()
                        hold = held
                        logger.info("exposure held for the light challenge", metadata: ["controls": "\(held.restore.keys.map(\.rawValue).sorted())"])
                    }
                    await setLight(on)
                case .keep(let lit):
                    guard frames.count < Self.maximumLivenessFrames, let jpeg = try? processor.encode(frame) else { break }
                    let phaseName = if case .turning = phase { "turn" } else { "light" }
                    frames.append(.init(index: frames.count, attempt: loop.attempt, lit: lit, phase: phaseName))
                    report(.evidence(.livenessFrame(index: frames.count - 1, jpeg: jpeg)))
                case .best:
                    best = try? processor.encode(frame)
                case .finished(let result):
                    await lightOff()
                    let image = best ?? (try? processor.encode(frame))
                    let match = request.portrait.map { compare(portrait: $0, with: image, models: models, detector: detector) }
                    logger.info(
                        "liveness checked",
                        metadata: [
                            "decision": "\(result.decision.rawValue)", "score": "\(result.score)",
                            "reasons": "\(result.reasons.map { $0.rawValue }.joined(separator: ","))",
                        ])
                    if let match { logger.info("face compared with the chip's portrait", metadata: ["outcome": "\(match.outcome.rawValue)"]) }
                    report(.evidence(.liveness(LivenessEvidence(
                        challenge: loop.challenge, turn: loop.turn.rawValue, attempts: loop.attempt, frames: frames, result: result, match: match))))
                    if let jpeg = image {
                        report(.image(CapturedImage(bytes: jpeg, side: request.part), isLastOfSide: true))
                    }
                    return
                }
            }
        }
        await lightOff()
    }

    /// The best face image against the chip's portrait: each decoded, its surest face
    /// embedded, the two compared (``FaceMatcher``). The pixels are wiped after.
    func compare(portrait: [UInt8], with image: [UInt8]?, models: FaceModels, detector: FaceDetector) -> StationFaceMatch {
        func embedding(_ bytes: [UInt8]) -> FaceEmbedding? {
            guard var decoded = try? ImageFile.decodeRGB(bytes) else { return nil }
            defer { decoded.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            return (try? models.embedding(ofSurestFaceIn: decoded, detector: detector)) ?? nil
        }
        guard let chip = embedding(portrait) else { return StationFaceMatch(outcome: .noFaceInPortrait) }
        guard let image, let live = embedding(image) else { return StationFaceMatch(outcome: .noFaceInImage) }
        let result = FaceMatcher(settings: settings.faceMatch).compare(chip, live)
        let outcome: StationFaceMatch.Outcome = switch result.decision {
        case .match: .match
        case .review: .review
        case .noMatch: .noMatch
        }
        return StationFaceMatch(outcome: outcome, similarity: result.similarity)
    }

    /// A simulated person does what the screen asks (a real one reads it).
    private func follow(_ state: Scan.ExtractionState, source: any FrameSource) {
        guard let person = source as? any HeadTurning else { return }
        switch state {
        // "Turn left" is the person's own left: their nose goes to the image's right.
        case .tiltFace(.left): person.turnHead(toward: 12)
        case .tiltFace(.right): person.turnHead(toward: -12)
        default: person.turnHead(toward: nil)
        }
    }

    private func setLight(_ on: Bool) async {
        guard let flash else { return }
        do {
            if on { try await flash.on() } else { try await flash.off() }
        } catch {
            logger.warning("the LED did not switch; the liveness light check will say so", metadata: ["error": "\(error)"])
        }
    }

    private func lightOff() async {
        try? await flash?.off()
    }
}
