import ScanFlow
import Testing

/// Property-based: random event sequences, from fixed seeds so a failure replays, must
/// keep the journey's invariants whatever the order of events.
@Suite struct RandomJourneyTests {
    static let journeys: UInt64 = 400
    static let eventsPerJourney = 160

    /// What one journey did wrong, if anything.
    struct Violation: Error, CustomStringConvertible {
        let seed: UInt64
        let rule: String
        let trace: [String]
        var description: String { "seed \(seed): \(rule)\nlast events:\n" + trace.suffix(12).joined(separator: "\n") }
    }

    static func run(seed: UInt64) -> Swift.Result<JourneyResult, Violation> {
        var rng = SplitMix64(seed: seed)
        var h = Harness()
        // The first event is a start more often than not, so most journeys get somewhere.
        var trace: [String] = []
        var pendingConsent: Set<String>?
        var cameraOn = false
        var finishedCount = 0
        var wiped = false
        var ending: JourneyResult?
        for step in 0...eventsPerJourney {
            // Whatever happened, the owner cancels at the end so every journey ends.
            let event = step == eventsPerJourney ? .cancel : nextEvent(step: step, seed: seed, harness: h, using: &rng)
            let wasEnded = h.controller.hasEnded
            let wasDigital = h.controller.currentScanPart?.part == .digital
            let actions = event.apply(to: &h)
            let isDigital = h.controller.currentScanPart?.part == .digital
            trace.append("\(event) -> \(actions)")
            func violation(_ rule: String) -> Swift.Result<JourneyResult, Violation> {
                .failure(Violation(seed: seed, rule: rule, trace: trace))
            }

            if case .start(let workflow) = event, actions.contains(where: { if case .display(.initialized) = $0 { true } else { false } }) {
                pendingConsent = Set((workflow.consentItems ?? []).filter { $0.type == .active }.map(\.id))
            }
            if case .consent(let id, true) = event, !actions.contains(where: { if case .display(.logicalError) = $0 { true } else { false } }) {
                pendingConsent?.remove(id)
            }
            if wasEnded {
                let allowed: [[Action]] = [[], [.display(.logicalError(.deadController))]]
                if !allowed.contains(actions) { return violation("an action after the end") }
                continue
            }
            for (index, action) in actions.enumerated() {
                switch action {
                case .startCamera, .requestFile, .startChipRead, .uploadPart, .captureImage, .uploadChipData:
                    if pendingConsent != [] { return violation("capture before consent: \(action)") }
                    if wasDigital || isDigital { return violation("a capture for the digital part: \(action)") }
                    if case .startCamera = action {
                        if cameraOn { return violation("camera started twice") }
                        cameraOn = true
                    }
                case .stopCamera:
                    cameraOn = false
                case .display(.digitalHandoff), .display(.step(.digitalIdentityView)), .display(.step(.thirdPartyVerification)):
                    if !isDigital { return violation("a Digital Identity step outside the digital part: \(action)") }
                    if cameraOn { return violation("the camera runs during a Digital Identity: \(action)") }
                case .display(.finished(let result)):
                    finishedCount += 1
                    ending = result
                    if index + 1 >= actions.count || actions[index + 1] != .wipeSession {
                        return violation("finished not directly followed by wipeSession")
                    }
                case .wipeSession:
                    if wiped { return violation("wiped twice") }
                    wiped = true
                    if index != actions.count - 1 { return violation("an action after the wipe") }
                    if cameraOn { return violation("camera left on at the end") }
                default:
                    break
                }
            }
            if finishedCount > 1 { return violation("more than one finished") }
            if h.controller.hasEnded != (finishedCount == 1) { return violation("ended without finished, or finished without ending") }
            if h.controller.hasEnded, !h.timers.isEmpty { return violation("timers left at the end: \(h.timers.keys)") }
        }
        guard finishedCount == 1, wiped, let ending else {
            return .failure(Violation(seed: seed, rule: "journey did not end exactly once", trace: trace))
        }
        return .success(ending)
    }

    @Test func randomJourneysKeepTheInvariants() {
        var successes = 0
        var digitalSuccesses = 0
        var errorCodes: Set<String> = []
        for seed in 1...Self.journeys {
            switch Self.run(seed: seed) {
            case .failure(let violation):
                Issue.record("\(violation)")
                return
            case .success(let result):
                if result.isSuccess { successes += 1 }
                if result.isSuccess, result.credentials.contains(where: { $0.parts[.digital] == .web }) {
                    digitalSuccesses += 1
                }
                if let error = result.error { errorCodes.insert(error.code) }
            }
        }
        // The walk must reach far enough to mean something: whole journeys, and many ways to fail.
        #expect(successes >= 20, "only \(successes) journeys succeeded")
        #expect(errorCodes.count >= 8, "journeys ended with only \(errorCodes.sorted())")
        #expect(digitalSuccesses >= 3, "only \(digitalSuccesses) journeys succeeded through a Digital Identity")
    }

    /// The walk: mostly what a cooperative person would do next, sometimes anything at all.
    static func nextEvent(step: Int, seed: UInt64, harness h: Harness, using rng: inout SplitMix64) -> RandomEvent {
        if step == 0, seed % 8 != 0 { return .start(RandomEvent.workflows[Int(seed / 8) % RandomEvent.workflows.count]) }
        let suggested = RandomEvent.suggested(for: h)
        if !suggested.isEmpty, Int.random(in: 0..<4, using: &rng) != 0 {
            return suggested[Int.random(in: 0..<suggested.count, using: &rng)]
        }
        return .random(using: &rng)
    }
}
