import ScanFlow

/// The per-frame decisions of a face capture: the quality gate (or the shutter), one image
/// of the face, then a pause before the next, as a deadline on the capture's clock.
///
/// The liveness loop and the light challenge of DESIGN.md come with the `Vision` module.
struct FaceCapture: FrameDecisions {
    let part: Credential.Part
    private var cycle: ShotCycle<QualityGate>

    init(request: CaptureRequest, gate: QualityGate.Settings, pause: Duration) {
        part = request.part
        cycle = ShotCycle(
            automatic: request.mode.isAutomatic, gate: QualityGate(settings: gate, outOfRange: .extractionState(.centerFace)), pause: pause)
    }

    mutating func frame(at now: Duration, shutter: Bool, detectionPaused: Bool) -> FrameAction {
        action(cycle.frame(at: now, shutter: shutter, detectionPaused: detectionPaused))
    }

    mutating func measured(_ measure: FrameMeasure) -> FrameAction {
        action(cycle.measured(measure))
    }

    mutating func taken(at now: Duration) { cycle.taken(at: now) }

    mutating func notTaken() { cycle.notTaken() }

    private func action(_ action: ShotCycle<QualityGate>.Action) -> FrameAction {
        switch action {
        case .ignore: .ignore
        case .measure: .measure
        case .report(let update): .report(update)
        case .take(let byShutter): .take(Shot(side: part, byShutter: byShutter))
        case .giveUp(let failure): .giveUp(failure)
        }
    }
}
