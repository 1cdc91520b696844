import ScanFlow
import Testing

/// Digital Identity on a kiosk: the seeds' deep link becomes a hand-off to the person's
/// phone and a third-party verification step whose outcome the backend reports.
@Suite struct DigitalIdentityTests {
    static let handoffSteps: [Action] = [
        .display(.step(.prepare(.digital))),
        .display(.step(.started(.digital, .web))),
        .display(.digitalHandoff(Fixtures.handoff)),
        .display(.step(.digitalIdentityView(.digital))),
    ]

    /// A harness at the hand-off view of the digital credential.
    static func atHandoff(configuration: Controller.Configuration = .init()) -> Harness {
        var h = Harness(configuration: configuration)
        h.send { $0.start(workflow: Fixtures.digitalAndFace) }
        h.send { $0.startCredential(id: "id-3") }
        h.send { $0.setConfiguration(country: "DNK", digitalDocument: Fixtures.mitID) }
        h.send { $0.startScanPart(.digital) }
        return h
    }

    static func isCapture(_ action: Action) -> Bool {
        switch action {
        case .startCamera, .captureImage, .requestFile, .uploadPart, .startChipRead: true
        default: false
        }
    }

    @Test func aDigitalIdentityIsHandedOverAndFinishedLikeAnyPart() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.digitalAndFace) }
        #expect(
            h.send { $0.startCredential(id: "id-3") }.withoutTimers == [
                .display(.credentialStarted(id: "id-3", isConfigured: false, parts: []))
            ]
        )
        let credential = h.controller.credentials[0]
        #expect(credential.supportedCountries == ["DNK"])
        #expect(credential.physicalDocuments(for: "DNK") == [Document(.passport)])
        #expect(credential.digitalDocuments(for: "DNK") == [Fixtures.mitID])
        #expect(credential.digitalDocuments(for: "AUT") == [])
        #expect(
            h.send { $0.setConfiguration(country: "DNK", digitalDocument: Fixtures.mitID) }.withoutTimers == [
                .display(.credentialConfigured(id: "id-3", parts: [.digital]))
            ]
        )
        #expect(h.controller.credentials[0].digitalConfiguration?.document == Fixtures.mitID)
        #expect(h.controller.credentials[0].configuration == nil)

        let handoff = h.send { $0.startScanPart(.digital) }
        #expect(handoff.withoutTimers == Self.handoffSteps)
        // The person works on their phone: the longer hand-off timeout, and no camera.
        #expect(handoff.contains(.scheduleTimeout(h.timers[.inactivity]!.timeout, after: .seconds(300))))
        #expect(h.timers[.device] == nil)
        #expect(h.controller.currentScanPart?.part == .digital)
        #expect(h.controller.currentScanPart?.mode == .web)

        #expect(h.send { $0.handoffConfirmed() }.withoutTimers == [.display(.step(.thirdPartyVerification(.digital)))])
        // The backend seeing the session open afterwards changes nothing.
        #expect(h.send { $0.thirdPartySessionOpened() } == [])
        let success = h.send { $0.thirdPartyFinished(.success) }
        #expect(success.withoutTimers == [.display(.step(.processing(.digital)))])
        #expect(success.contains(.cancelTimeout(.inactivity)))
        #expect(h.send { $0.partProcessed(.accepted) }.withoutTimers == [.display(.step(.canFinish(.digital)))])
        h.send { $0.finishScanPart() }
        #expect(h.send { $0.finishCredential() }.withoutTimers == [.display(.credentialFinished(id: "id-3"))])
        h.scanAcceptedFace()
        h.send { $0.finish() }
        let end = h.send { $0.finalized() }
        #expect(end.result?.isSuccess == true)
        #expect(end.result?.credentials.first == .init(id: "id-3", category: .id, parts: [.digital: .web], chipRead: false))
        // Only the face used the camera.
        #expect(h.log.filter(Self.isCapture).count == 2)
        #expect(h.log.filter(Self.isCapture).allSatisfy { action in
            switch action {
            case .startCamera(.faceLiveness), .uploadPart(.face, _): true
            default: false
            }
        })
    }

    @Test func theBackendSeeingTheSessionOpenIsEnough() {
        var h = Self.atHandoff()
        #expect(h.send { $0.thirdPartySessionOpened() }.withoutTimers == [.display(.step(.thirdPartyVerification(.digital)))])
        #expect(h.send { $0.handoffConfirmed() } == [.display(.logicalError(.scanPartNotCompleted))])
        // An outcome straight from the hand-off view counts too: the person can be quick.
        var quick = Self.atHandoff()
        #expect(quick.send { $0.thirdPartyFinished(.success) }.withoutTimers == [.display(.step(.processing(.digital)))])
    }

    @Test func aFailedVerificationIsHandedOverAgainThenStaffIsAsked() {
        var h = Self.atHandoff(configuration: .init(maxAttemptsPerPart: 2))
        h.send { $0.handoffConfirmed() }
        let reason = Retry.Reason(code: 21, message: "Provider could not verify")
        #expect(h.send { $0.thirdPartyFinished(.failed(reason)) }.withoutTimers == [.display(.step(.retry(.digital, reason)))])
        #expect(h.send { $0.retake() }.withoutTimers == Self.handoffSteps)
        // The second failure reaches the limit; a digital part has no fallback: ask staff.
        #expect(
            h.send { $0.thirdPartyFinished(.failed(reason)) }.withoutTimers == [
                .display(.step(.retry(.digital, reason))), .display(.askStaff(.digital)),
            ]
        )
        #expect(!h.controller.hasEnded)
    }

    @Test func aProviderErrorIsRetriedOrEndsTheJourney() {
        var h = Self.atHandoff()
        h.send { $0.handoffConfirmed() }
        let network = FlowError(.A, detail: "100503")
        #expect(h.send { $0.thirdPartyFinished(.error(network)) }.withoutTimers == [.display(.error(network))])
        #expect(h.send { $0.thirdPartyFinished(.success) } == [])
        #expect(h.send { $0.retryAfterError() }.withoutTimers == Self.handoffSteps)

        var fatal = Self.atHandoff()
        let end = fatal.send { $0.thirdPartyFinished(.error(FlowError(.F))) }
        #expect(end.result?.error == FlowError(.F))
        #expect(end.last == .wipeSession)
        #expect(fatal.controller.hasEnded)
        // The same through the backend's generic failure event.
        var upload = Self.atHandoff()
        #expect(upload.send { $0.scanFailed(FlowError(.E)) }.withoutTimers == [.display(.error(FlowError(.E)))])
    }

    @Test func cancellingAtTheProviderGoesBackToTheDocumentSelection() {
        var h = Self.atHandoff()
        h.send { $0.handoffConfirmed() }
        let back = h.send { $0.thirdPartyFinished(.cancelled) }
        #expect(back.withoutTimers == [.display(.credentialStarted(id: "id-3", isConfigured: false, parts: []))])
        #expect(h.controller.currentScanPart == nil)
        #expect(!h.controller.credentials[0].isConfigured)
        #expect(h.controller.credentials[0].digitalConfiguration == nil)
        // The person chooses the passport instead.
        #expect(
            h.send { $0.setConfiguration(country: "DNK", document: Document(.passport)) }.withoutTimers == [
                .display(.credentialConfigured(id: "id-3", parts: [.front]))
            ]
        )
        #expect(h.send { $0.startScanPart(.front) }.withoutTimers == [.display(.step(.prepare(.front))), .startCamera(.docFinder)])
        // A late outcome of the cancelled hand-off is dropped.
        #expect(h.send { $0.thirdPartyFinished(.success) } == [])
    }

    @Test func theHandoffWaitsLongerThenWarnsAndEnds() {
        var h = Self.atHandoff(configuration: .init(defaultInactivityTimeout: .seconds(60), handoffTimeout: .seconds(300)))
        #expect(h.advance(by: .seconds(299)) == [])
        #expect(h.advance(by: .seconds(1)).displayed == [.inactivityWarning(remaining: .seconds(15))])
        h.send { $0.userIsPresent() }
        h.send { $0.handoffConfirmed() }
        #expect(h.advance(by: .seconds(299)) == [])
        h.advance(by: .seconds(1))
        let end = h.advance(by: .seconds(15))
        #expect(end.result?.error == .abandoned)
        #expect(!end.contains(.stopCamera))
    }

    @Test func theThirdPartyTimeoutIsConfigurablePerPhase() {
        var h = Self.atHandoff(configuration: .init(inactivityTimeouts: [.thirdParty: .seconds(30)]))
        let confirmed = h.send { $0.handoffConfirmed() }
        #expect(confirmed.contains(.scheduleTimeout(h.timers[.inactivity]!.timeout, after: .seconds(30))))
        #expect(h.advance(by: .seconds(30)).displayed == [.inactivityWarning(remaining: .seconds(15))])
    }

    @Test func theSessionLifetimeEndsAHandoff() {
        var h = Self.atHandoff(configuration: .init(handoffTimeout: .seconds(3600)))
        h.send { $0.handoffConfirmed() }
        let end = h.advance(by: .seconds(15 * 60))
        #expect(end.result?.error == .sessionExpired)
        #expect(h.controller.hasEnded)
    }

    @Test func aDigitalDocumentIsNeverPreselected() {
        var h = Harness()
        h.send {
            $0.start(
                workflow: Workflow(credentials: [Fixtures.digitalOnlyCredential], token: Fixtures.token, digitalHandoffs: [Fixtures.handoff])
            )
        }
        #expect(Fixtures.digitalOnlyCredential.preselection == nil)
        #expect(
            h.send { $0.startCredential(id: "id-4") }.withoutTimers == [
                .display(.credentialStarted(id: "id-4", isConfigured: false, parts: []))
            ]
        )
        // Starting the digital part as if it were preselected is refused: the person has to choose it.
        #expect(h.send { $0.startScanPart(.digital) } == [.display(.logicalError(.credentialNotCompleted))])
        h.send { $0.setConfiguration(country: "DNK", digitalDocument: Fixtures.mitID) }
        #expect(h.send { $0.startScanPart(.digital) }.withoutTimers == Self.handoffSteps)
        // A passport with a digital alternative is two combinations: no preselection either.
        let passportOrDigital = Credential.Info(
            id: "id-5",
            category: .id,
            countries: ["DNK": [Document(.passport)]],
            digitalDocuments: ["DNK": [Fixtures.mitID]]
        )
        #expect(passportOrDigital.preselection == nil)
        var withoutDigital = passportOrDigital
        withoutDigital.digitalDocuments = [:]
        #expect(withoutDigital.preselection?.document == Document(.passport))
    }

    @Test func aDigitalDocumentNotOfferedOrWithoutHandoffIsNotSupported() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.digitalAndFace) }
        h.send { $0.startCredential(id: "id-3") }
        let bankID = DigitalDocument(id: "bankid", title: "BankID")
        #expect(h.send { $0.setConfiguration(country: "DNK", digitalDocument: bankID) }.withoutTimers == [.display(.configurationNotSupported(id: "id-3"))])
        #expect(h.send { $0.setConfiguration(country: "AUT", digitalDocument: Fixtures.mitID) }.withoutTimers == [.display(.configurationNotSupported(id: "id-3"))])
        var noHandoff = Harness()
        var workflow = Fixtures.digitalAndFace
        workflow.digitalHandoffs = []
        noHandoff.send { $0.start(workflow: workflow) }
        noHandoff.send { $0.startCredential(id: "id-3") }
        #expect(
            noHandoff.send { $0.setConfiguration(country: "DNK", digitalDocument: Fixtures.mitID) }.withoutTimers == [
                .display(.configurationNotSupported(id: "id-3"))
            ]
        )
        #expect(!noHandoff.controller.credentials[0].isConfigured)
    }

    @Test(arguments: [false, true])
    func cameraCommandsAreMisusesDuringAHandoff(thirdParty: Bool) {
        var h = Self.atHandoff()
        if thirdParty { h.send { $0.handoffConfirmed() } }
        #expect(h.send { $0.takeImage() } == [.display(.logicalError(.takePictureNotAllowed))])
        for command: DisplayCommand in [.confirm, .retake, .switchToFallback, .pauseScan, .retryScan, .finishScanPart] {
            #expect(h.send { $0.handle(command) } == [.display(.logicalError(.scanPartNotCompleted))], "\(command)")
        }
        #expect(h.send { $0.retryAfterError() } == [.display(.logicalError(.errorNotRetryable))])
        #expect(h.send { $0.startScanPart(.digital) } == [.display(.logicalError(.multipleScanParts))])
        // Device events for a capture that does not exist are dropped; a lost camera does not end it.
        #expect(h.send { $0.cameraStarted() } == [])
        #expect(h.send { $0.imageCaptured(Fixtures.image(.front)) } == [])
        #expect(h.send { $0.deviceLost(.camera) } == [.display(.update(.cameraAvailable(false)))])
        #expect(!h.controller.hasEnded)
    }

    @Test func outcomesOutsideADigitalPartAreDropped() {
        var h = Stage.scanning.harness()
        #expect(h.send { $0.thirdPartySessionOpened() } == [])
        #expect(h.send { $0.thirdPartyFinished(.cancelled) } == [])
        #expect(h.send { $0.thirdPartyFinished(.error(FlowError(.F))) } == [])
        #expect(h.send { $0.handoffConfirmed() } == [.display(.logicalError(.scanPartNotCompleted))])
        #expect(!h.controller.hasEnded)
    }

    @Test func notYetImplementedIsNeverSent() {
        var h = Self.atHandoff()
        h.send { $0.cancel() }
        #expect(!h.log.contains(.display(.logicalError(.notYetImplemented))))
    }
}
