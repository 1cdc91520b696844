import ScanFlow
import Testing

/// A place in the journey a test can drive a fresh controller to, for the tests that
/// must hold in every state (cancel, session lifetime, inactivity).
enum Stage: String, CaseIterable, CustomTestStringConvertible {
    case idle
    case consent
    case selection
    case configuring
    case starting
    case scanning
    case paused
    case processing
    case confirmation
    case rejected
    case retry
    case failed
    case canFinish
    case awaitingChip
    case readingChip
    case finishing
    case finishingFailed

    var testDescription: String { rawValue }

    /// The inactivity timeout phase the station waits in at this stage; `nil` when it
    /// waits for a device or the backend, not for the person.
    var inactivityPhase: Controller.InactivityPhase? {
        switch self {
        case .idle, .starting, .processing, .readingChip, .finishing: nil
        case .consent: .consent
        case .selection, .configuring: .selection
        case .scanning: .scanning
        case .paused: .help
        case .confirmation: .confirmation
        case .rejected: .reject
        case .retry: .retry
        case .failed, .finishingFailed: .error
        case .canFinish: .canFinish
        case .awaitingChip: .chip
        }
    }

    /// Whether the camera runs at this stage.
    var holdsCamera: Bool { self == .starting || self == .scanning || self == .paused }

    /// A harness driven to this stage through the passport + chip + face workflow.
    func harness(configuration: Controller.Configuration = .init()) -> Harness {
        var h = Harness(configuration: configuration)
        if self == .idle { return h }
        var workflow = Fixtures.passportAndFace
        if self == .configuring {
            workflow.credentials[0] = Fixtures.idCardCredential
        }
        h.send { $0.start(workflow: workflow) }
        if self == .consent { return h }
        h.send { $0.userConsented(itemID: "privacy", decision: true) }
        if self == .selection { return h }
        h.send { $0.startCredential(id: workflow.credentials[0].id) }
        if self == .configuring { return h }
        h.send { $0.startScanPart(.front) }
        if self == .starting { return h }
        h.send { $0.cameraStarted() }
        switch self {
        case .scanning: return h
        case .paused:
            h.send { $0.pauseScan() }
            return h
        case .failed:
            h.send { $0.scanFailed(FlowError(.Z)) }
            return h
        default: break
        }
        h.send { $0.imageCaptured(Fixtures.image(.front, key: Fixtures.mrzKey)) }
        switch self {
        case .processing: return h
        case .rejected:
            h.send { $0.partProcessed(.rejected([.front: .glare])) }
            return h
        case .retry:
            h.send { $0.partProcessed(.retry(Retry.Reason(code: 7, message: "hold still"))) }
            return h
        default: break
        }
        h.send { $0.partProcessed(.accepted) }
        if self == .confirmation { return h }
        h.send { $0.confirm() }
        if self == .canFinish { return h }
        h.send { $0.finishScanPart() }
        if self == .awaitingChip { return h }
        h.send { $0.chipReadStarted() }
        if self == .readingChip { return h }
        h.send { $0.chipReadFinished() }
        h.send { $0.finishScanPart() }
        h.send { $0.finishCredential() }
        h.scanAcceptedFace()
        h.send { $0.finish() }
        if self == .finishing { return h }
        h.send { $0.finalizeFailed(FlowError(.A, detail: "010503")) }
        return h
    }
}
