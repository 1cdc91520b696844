import ScanFlow

typealias Action = Controller.Action

/// Drives a controller the way the station will: performs timers on a manual clock and
/// records every action, so tests assert what the controller asked for.
struct Harness {
    var controller: Controller
    /// Every action returned so far, in order.
    private(set) var log: [Action] = []
    /// The manual clock: time since the harness was made.
    private(set) var now: Duration = .zero
    /// Timers the controller asked for, one per kind, with their deadline on the manual clock.
    private(set) var timers: [Timeout.Kind: (timeout: Timeout, deadline: Duration)] = [:]

    init(configuration: Controller.Configuration = .init()) {
        controller = Controller(configuration: configuration)
    }

    /// Sends one event and returns (and records) its actions.
    @discardableResult
    mutating func send(_ event: (inout Controller) -> [Action]) -> [Action] {
        let actions = event(&controller)
        record(actions)
        return actions
    }

    private mutating func record(_ actions: [Action]) {
        log += actions
        for action in actions {
            switch action {
            case .scheduleTimeout(let timeout, let after):
                timers[timeout.kind] = (timeout, now + after)
            case .cancelTimeout(let kind):
                timers[kind] = nil
            default:
                break
            }
        }
    }

    /// Moves the manual clock and fires every timer that falls due, earliest first.
    @discardableResult
    mutating func advance(by duration: Duration) -> [Action] {
        let end = now + duration
        var fired: [Action] = []
        while let (kind, entry) = timers.filter({ $0.value.deadline <= end }).min(by: { $0.value.deadline < $1.value.deadline }) {
            now = entry.deadline
            timers[kind] = nil
            let actions = controller.timeoutFired(entry.timeout)
            record(actions)
            fired += actions
        }
        now = end
        return fired
    }

    /// The backend accepts the open part; the person confirms it and finishes the part, its
    /// credential and the journey, which is finalised. Returns the journey's result.
    @discardableResult
    mutating func acceptAndFinishJourney() -> JourneyResult? {
        send { $0.partProcessed(.accepted) }
        send { $0.confirm() }
        send { $0.finishScanPart() }
        send { $0.finishCredential() }
        send { $0.finish() }
        return send { $0.finalized() }.result
    }

    /// Opens the face credential, captures a face the backend accepts and finishes both.
    mutating func scanAcceptedFace() {
        send { $0.startCredential(id: Fixtures.faceCredential.id) }
        send { $0.startScanPart(.face) }
        send { $0.cameraStarted() }
        send { $0.imageCaptured(Fixtures.image(.face)) }
        send { $0.partProcessed(.accepted) }
        send { $0.finishScanPart() }
        send { $0.finishCredential() }
    }

    /// The display messages among the actions so far.
    var displayed: [DisplayMessage] {
        log.compactMap {
            if case .display(let message) = $0 { return message }
            return nil
        }
    }

    /// The steps shown so far.
    var steps: [Scan.Step] {
        displayed.compactMap {
            if case .step(let step) = $0 { return step }
            return nil
        }
    }
}

extension [Action] {
    /// The actions without timer bookkeeping, which most tests do not assert on.
    var withoutTimers: [Action] {
        filter {
            switch $0 {
            case .scheduleTimeout, .cancelTimeout: false
            default: true
            }
        }
    }

    var displayed: [DisplayMessage] {
        compactMap {
            if case .display(let message) = $0 { return message }
            return nil
        }
    }

    /// The journey's result, when these actions end it.
    var result: JourneyResult? {
        displayed.lazy.compactMap {
            if case .finished(let result) = $0 { return result }
            return nil
        }.first
    }
}
