import ScanFlow
import Testing

@Suite struct TimeoutTests {
    /// A different timeout per phase, so a test sees that each step uses its own.
    static let configuration = Controller.Configuration(
        inactivityTimeouts: Dictionary(
            uniqueKeysWithValues: Controller.InactivityPhase.allCases.enumerated().map { ($1, .seconds(30 + 5 * $0)) }
        ),
        inactivityWarningGrace: .seconds(20)
    )

    @Test(arguments: Stage.allCases.filter { $0.inactivityPhase != nil })
    func inactivityWarnsThenResetsTheStation(_ stage: Stage) throws {
        var h = stage.harness(configuration: Self.configuration)
        let phase = try #require(stage.inactivityPhase)
        let timeout = try #require(Self.configuration.inactivityTimeouts[phase])
        let armed = try #require(h.timers[.inactivity])
        #expect(armed.deadline == h.now + timeout)

        #expect(h.advance(by: timeout - .seconds(1)) == [])
        let warning = h.advance(by: .seconds(1))
        #expect(warning.displayed == [.inactivityWarning(remaining: .seconds(20))])
        #expect(!h.controller.hasEnded)

        let reset = h.advance(by: .seconds(20))
        #expect(reset.result?.error == .abandoned)
        #expect(reset.result?.error?.code == "G000001")
        #expect(reset.last == .wipeSession)
        #expect(reset.contains(.stopCamera) == stage.holdsCamera)
        #expect(h.controller.hasEnded)
        #expect(h.timers.isEmpty)
    }

    @Test(arguments: Stage.allCases.filter { $0.inactivityPhase == nil && $0 != .idle })
    func noInactivityTimerWhileADeviceOrTheBackendWorks(_ stage: Stage) {
        let h = stage.harness(configuration: Self.configuration)
        #expect(h.timers[.inactivity] == nil)
    }

    @Test func answeringTheWarningKeepsTheJourney() {
        var h = Stage.confirmation.harness(configuration: Self.configuration)
        let timeout = Self.configuration.inactivityTimeouts[.confirmation]!
        #expect(h.advance(by: timeout).displayed == [.inactivityWarning(remaining: .seconds(20))])
        #expect(h.send { $0.userIsPresent() } == [.scheduleTimeout(Timeout(.inactivity, generation: h.timers[.inactivity]!.timeout.generation), after: timeout)])
        // The grace period passes without a reset: the timer was re-armed for the whole step.
        #expect(h.advance(by: .seconds(20)) == [])
        #expect(h.send { $0.confirm() }.displayed == [.step(.canFinish(.front))])
    }

    @Test func aStaleInactivityFiringIsIgnored() {
        var h = Stage.scanning.harness()
        let stale = h.timers[.inactivity]!.timeout
        h.send { $0.scanUpdate(.flash(.on)) }
        h.send { $0.pauseScan() }
        #expect(h.timers[.inactivity]!.timeout != stale)
        #expect(h.send { $0.timeoutFired(stale) } == [])
    }

    @Test(arguments: Stage.allCases.filter { $0 != .idle })
    func sessionLifetimeEndsWithJ(_ stage: Stage) throws {
        var h = stage.harness()
        let session = try #require(h.timers[.session])
        #expect(session.deadline == .seconds(900))
        let end = h.send { $0.timeoutFired(session.timeout) }
        #expect(end.displayed.first == .error(.sessionExpired))
        #expect(end.result?.error?.code == "J000000")
        #expect(end.result?.error?.isRetryable == false)
        #expect(end.last == .wipeSession)
        #expect(end.contains(.stopCamera) == stage.holdsCamera)
    }

    @Test func sessionLifetimeOnTheClock() {
        var h = Harness(configuration: .init(defaultInactivityTimeout: .seconds(3600)))
        var workflow = Fixtures.passportAndFace
        workflow.tokenLifetime = .seconds(120)
        h.send { $0.start(workflow: workflow) }
        #expect(h.advance(by: .seconds(119)) == [])
        #expect(h.advance(by: .seconds(1)).result?.error == .sessionExpired)
    }

    @Test func aCameraThatDoesNotStartEndsWithH() {
        var h = Stage.starting.harness()
        #expect(h.advance(by: .seconds(9)) == [])
        let end = h.advance(by: .seconds(1))
        #expect(end.displayed.first == .error(.cameraUnavailable))
        #expect(end.contains(.stopCamera))
        #expect(end.result?.error?.code == "H000000")
    }

    @Test func aStartedCameraCancelsTheDeviceTimer() {
        var h = Stage.starting.harness()
        let device = h.timers[.device]!.timeout
        #expect(h.send { $0.cameraStarted() }.contains(.cancelTimeout(.device)))
        #expect(h.send { $0.timeoutFired(device) } == [])
        #expect(!h.controller.hasEnded)
    }
}
