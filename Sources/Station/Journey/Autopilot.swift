public import Display
public import Logging
public import ScanFlow
import Synchronization

/// A scripted person for `make demo-auto` and tests: it watches what the station shows and
/// answers each screen as a person would (consents, picks the first country and document,
/// confirms images, finishes parts and credentials, says "that was the last page" once its
/// paper document's pages are taken), through the same commands a display sends. It wraps
/// the real display, which shows everything as usual.
public final class Autopilot: StationDisplay, Sendable {
    private struct State {
        var loop: StationLoop?
        var credentials: [Credential.Info] = []
        var started: Set<String> = []
        var parts: [Credential.Part] = []
        var journeysLeft: Int
        var startedJourneys = 0
        /// At an Authentication station, the enrollments the next journeys name, in order.
        var references: [AuthenticationReference]
        /// An Authentication station idles and no reference is queued: the next one starts a journey.
        var waitingForReference = false
        /// A journey it started has not ended yet (no `finished`, no refusal).
        var running = false
        var worker: Task<Void, Never>?
    }

    let display: any StationDisplay
    let pause: Duration
    /// How many pages the scripted person's paper document has.
    let documentPages: Int
    let clock: any Clock<Duration>
    let logger: Logger
    private let state: Mutex<State>
    /// What the autopilot saw of its journeys.
    public enum Report: Sendable {
        case finished(JourneyResult)
        /// The backend's decision (`nil`: not known yet, the outbox delivers later).
        case decision(reference: String, decision: String?)
        /// Every journey it was to run has ended and the station idles again.
        case done
    }

    private let finishedContinuation: AsyncStream<Report>.Continuation
    /// What happened to the journeys it ran, in order.
    public let results: AsyncStream<Report>
    private let inputs: AsyncStream<DisplayInput>
    private let inputContinuation: AsyncStream<DisplayInput>.Continuation

    /// - Parameters:
    ///   - journeys: how many journeys to start from the idle screen.
    ///   - pause: how long it "reads" each screen before answering (so a viewer can follow).
    ///   - clock: where it waits while it "reads".
    ///   - references: at an Authentication station, the enrollment each journey names, in order.
    ///   - documentPages: the pages of its paper document: it says the last was taken after these.
    public init(
        wrapping display: any StationDisplay, journeys: Int = 1, pause: Duration = .milliseconds(700), clock: any Clock<Duration> = ContinuousClock(),
        references: [AuthenticationReference] = [], documentPages: Int = 2, logger: Logger
    ) {
        self.display = display
        self.pause = pause
        self.documentPages = documentPages
        self.clock = clock
        self.logger = logger
        state = Mutex(State(journeysLeft: journeys, references: references))
        (results, finishedContinuation) = AsyncStream.makeStream(of: Report.self)
        (inputs, inputContinuation) = AsyncStream.makeStream(of: DisplayInput.self)
    }

    /// Connects the autopilot to the loop it answers; its answers go out one at a time, each
    /// after `pause`, without holding up the loop.
    public func attach(to loop: StationLoop) {
        state.withLock { $0.loop = loop }
        let (inputs, pause, clock) = (self.inputs, self.pause, self.clock)
        let worker = Task {
            for await input in inputs {
                if pause > .zero { try? await clock.sleep(for: pause, tolerance: nil) }
                loop.submit(input)
            }
        }
        state.withLock { $0.worker = worker }
    }

    deinit { state.withLock { $0.worker?.cancel() } }

    /// At an Authentication station: the next journey names this enrollment (it starts at
    /// once when the station idles waiting for one).
    public func authenticate(_ reference: AuthenticationReference) async {
        let start = state.withLock { state -> Bool in
            guard state.waitingForReference, !state.running, state.journeysLeft > 0 else {
                state.references.append(reference)
                return false
            }
            state.waitingForReference = false
            state.journeysLeft -= 1
            state.startedJourneys += 1
            state.running = true
            return true
        }
        if start { await send(.station(.startJourney(reference))) }
    }

    public func answer(_ message: DisplayMessage, to client: DisplayClientID) async {
        await display.answer(message, to: client)
    }

    public func show(_ screen: StationScreen) async {
        await display.show(screen)
        switch screen {
        case .idle(let startBy):
            let (go, done, reference) = state.withLock { state -> (Bool, Bool, AuthenticationReference?) in
                // The idle screen may come again while a start is on its way: only once.
                guard !state.running else { return (false, false, nil) }
                guard state.journeysLeft > 0 else { return (false, state.startedJourneys > 0, nil) }
                var reference: AuthenticationReference?
                if startBy.contains(.reference) {
                    // An Authentication names its enrollment: wait for one.
                    guard !state.references.isEmpty else {
                        state.waitingForReference = true
                        return (false, false, nil)
                    }
                    reference = state.references.removeFirst()
                }
                state.waitingForReference = false
                state.journeysLeft -= 1
                state.startedJourneys += 1
                state.running = true
                return (true, false, reference)
            }
            if go { await send(.station(.startJourney(reference))) }
            if done { finishedContinuation.yield(.done) }
        case .decision(let reference, let decision):
            finishedContinuation.yield(.decision(reference: reference, decision: decision))
        default:
            break
        }
    }

    public func show(_ message: DisplayMessage) async {
        await display.show(message)
        switch message {
        case .initialized(let credentials, let consentItems):
            state.withLock {
                $0.credentials = credentials
                $0.started = []
            }
            for item in consentItems ?? [] where item.type == .active {
                await send(.flow(.userConsented(itemID: item.id, decision: true)))
            }
            await startNextCredential()
        case .credentialStarted(let id, let isConfigured, let parts):
            if isConfigured {
                await startParts(parts)
            } else if let info = state.withLock({ $0.credentials.first { $0.id == id } }),
                let country = info.countries.keys.sorted().first, let document = info.countries[country]?.first
            {
                await send(.flow(.setConfiguration(country: country, document: document)))
            }
        case .credentialConfigured(_, let parts):
            await startParts(parts)
        case .step(.confirmationView):
            await send(.flow(.confirm))
        case .step(.rejectView), .step(.retry):
            await send(.flow(.retake))
        case .update(.nextPosition(let pages?)) where pages.taken >= documentPages:
            await send(.flow(.lastPage))
        case .step(.chipKeyView):
            // It knows no key to type: it goes on without the chip.
            await send(.flow(.switchToFallback))
        case .step(.canFinish(let part)):
            await send(.flow(.finishScanPart))
            let last = state.withLock { state -> Bool in
                state.parts.removeAll { $0 == part }
                return state.parts.isEmpty
            }
            // An add-on (the chip) may follow; then this is answered "not completed" and
            // the add-on's own canFinish finishes the credential.
            if last || part == .nfc { await send(.flow(.finishCredential)) }
        case .credentialFinished:
            await startNextCredential()
        case .inactivityWarning:
            await send(.flow(.userIsPresent))
        case .error where state.withLock({ $0.credentials.isEmpty }):
            // The journey could not start (the backend refused it): it is over.
            state.withLock { $0.running = false }
        case .error(let error) where error.isRetryable:
            await send(.flow(.retryAfterError))
        case .offerFallback:
            await send(.flow(.switchToFallback))
        case .finished(let result):
            state.withLock {
                $0.running = false
                $0.credentials = []
            }
            logger.notice("autopilot: journey finished", metadata: ["success": "\(result.isSuccess)", "error": "\(result.error?.code ?? "")"])
            finishedContinuation.yield(.finished(result))
        default:
            break
        }
    }

    private func startParts(_ parts: [Credential.Part]) async {
        state.withLock { $0.parts = parts }
        if let first = parts.first { await send(.flow(.startScanPart(first))) }
    }

    private func startNextCredential() async {
        let next = state.withLock { state -> String? in
            guard let info = state.credentials.first(where: { !state.started.contains($0.id) }) else { return nil }
            state.started.insert(info.id)
            return info.id
        }
        if let next {
            await send(.flow(.startCredential(id: next)))
        } else {
            await send(.flow(.finish))
        }
    }

    private func send(_ input: DisplayInput) async {
        logger.debug("autopilot", metadata: ["input": "\(input)"])
        inputContinuation.yield(input)
    }
}
