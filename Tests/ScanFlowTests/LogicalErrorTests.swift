import ScanFlow
import Testing

@Suite struct LogicalErrorTests {
    /// A misuse for every logical error of the seeds: the stage it starts from and the event.
    struct Misuse: CustomTestStringConvertible, Sendable {
        let error: LogicalError
        let stage: Stage
        let configuration: Controller.Configuration
        let event: @Sendable (inout Harness) -> [Action]

        init(
            _ error: LogicalError,
            at stage: Stage,
            configuration: Controller.Configuration = .init(),
            _ event: @escaping @Sendable (inout Harness) -> [Action]
        ) {
            self.error = error
            self.stage = stage
            self.configuration = configuration
            self.event = event
        }

        var testDescription: String { error.rawValue }
    }

    static let misuses: [Misuse] = [
        Misuse(.dependencyWrongVersion, at: .idle, configuration: .init(livenessProviderVersion: 2)) { h in
            var workflow = Fixtures.passportAndFace
            workflow.livenessProviderVersion = 3
            return h.send { $0.start(workflow: workflow) }
        },
        Misuse(.deadController, at: .scanning) { h in
            h.send { $0.cancel() }
            return h.send { $0.startCredential(id: "face-1") }
        },
        Misuse(.errorNotRetryable, at: .confirmation) { h in h.send { $0.retryAfterError() } },
        Misuse(.needToConsentFirst, at: .consent) { h in h.send { $0.startCredential(id: "id-1") } },
        Misuse(.controllerNotCompleted, at: .selection) { h in h.send { $0.finish() } },
        Misuse(.isBeingFinished, at: .finishing) { h in h.send { $0.startCredential(id: "id-1") } },
        Misuse(.multipleCredentials, at: .configuring) { h in h.send { $0.startCredential(id: "face-1") } },
        Misuse(.unknownCredential, at: .selection) { h in h.send { $0.startCredential(id: "no-such") } },
        Misuse(.deadCredential, at: .selection) { h in
            let passportWithoutChip: [(inout Controller) -> [Action]] = [
                { $0.startCredential(id: "id-1") }, { $0.startScanPart(.front) }, { $0.cameraStarted() },
                { $0.imageCaptured(Fixtures.image(.front)) }, { $0.partProcessed(.accepted) }, { $0.confirm() },
                // No key was read: the chip part asks for one, and the person goes on without it.
                { $0.finishScanPart() }, { $0.switchToFallback() }, { $0.finishScanPart() }, { $0.finishCredential() },
            ]
            for event in passportWithoutChip { h.send(event) }
            return h.send { $0.startCredential(id: "id-1") }
        },
        Misuse(.credentialNotCompleted, at: .configuring) { h in h.send { $0.finishCredential() } },
        Misuse(.multipleScanParts, at: .scanning) { h in h.send { $0.startScanPart(.front) } },
        Misuse(.unknownScanPart, at: .configuring) { h in
            h.send { $0.setConfiguration(country: "AUT", document: Document(.identityCard)) }
            return h.send { $0.startScanPart(.front) }
        },
        Misuse(.scanPartNotCompleted, at: .scanning) { h in h.send { $0.finishScanPart() } },
        Misuse(.deadScanPart, at: .awaitingChip) { h in
            h.send { $0.chipUnreadable() }
            h.send { $0.finishScanPart() }
            return h.send { $0.startScanPart(.front) }
        },
        Misuse(.noFallbackAvailable, at: .scanning) { h in
            h.send { $0.switchToFallback() }
            h.send { $0.cameraStarted() }
            return h.send { $0.switchToFallback() }
        },
        Misuse(.takePictureNotAllowed, at: .scanning) { h in h.send { $0.takeImage() } },
        Misuse(.tokenValidationFailed, at: .idle) { h in
            var workflow = Fixtures.passportAndFace
            workflow.token = SessionToken("")
            return h.send { $0.start(workflow: workflow) }
        },
        Misuse(.dataCenterValidationFailed, at: .idle) { h in
            var workflow = Fixtures.passportAndFace
            workflow.dataCenter = .US
            return h.send { $0.start(workflow: workflow) }
        },
        Misuse(.faceNotAllowedInFastfill, at: .idle) { h in
            h.send { $0.start(workflow: Fixtures.workflow(Fixtures.idCardCredential, Fixtures.faceCredential, flow: .fastfill)) }
        },
    ]

    /// The seeds' errors the kiosk never sends: it implements every part (Digital Identity as a hand-off).
    static let neverSent: Set<LogicalError> = [.notYetImplemented]

    @Test func everyLogicalErrorHasAMisuse() {
        #expect(Set(Self.misuses.map(\.error)) == Set(LogicalError.allCases).subtracting(Self.neverSent))
    }

    @Test(arguments: misuses)
    func misuseIsReportedAndChangesNothing(_ misuse: Misuse) {
        var h = misuse.stage.harness(configuration: misuse.configuration)
        let actions = misuse.event(&h)
        #expect(actions == [.display(.logicalError(misuse.error))])
        // Nothing changed: the controller answers the next events as an untouched copy would.
        var copy = h.controller
        #expect(h.controller.cancel() == copy.cancel())
    }

    @Test func startIsRefusedWithoutChangingAnything() {
        var h = Harness()
        var expired = Fixtures.passportAndFace
        expired.tokenLifetime = .zero
        #expect(h.send { $0.start(workflow: expired) } == [.display(.logicalError(.tokenValidationFailed))])
        #expect(!h.controller.hasEnded)
        // The controller can still start with a valid workflow.
        #expect(h.send { $0.start(workflow: Fixtures.passportAndFace) }.count == 3)
        #expect(h.send { $0.start(workflow: Fixtures.passportAndFace) } == [.display(.logicalError(.controllerNotCompleted))])
    }

    @Test func fastfillStartsWithoutAFaceAndStaysUnstartedWithOne() {
        var h = Harness()
        let withFace = Fixtures.workflow(Fixtures.faceCredential, Fixtures.idCardCredential, flow: .fastfill)
        #expect(h.send { $0.start(workflow: withFace) } == [.display(.logicalError(.faceNotAllowedInFastfill))])
        #expect(h.controller.credentials.isEmpty)
        #expect(!h.controller.hasEnded)
        // The same credentials verify; Fastfill without the face extracts.
        #expect(h.send { $0.start(workflow: Fixtures.workflow(Fixtures.idCardCredential, flow: .fastfill)) }.count == 3)
        var verification = Harness()
        #expect(verification.send { $0.start(workflow: Fixtures.workflow(Fixtures.faceCredential, Fixtures.idCardCredential)) }.count == 3)
    }

    @Test func matchingLivenessVersionStarts() {
        var h = Harness(configuration: .init(livenessProviderVersion: 3))
        var workflow = Fixtures.passportAndFace
        workflow.livenessProviderVersion = 3
        #expect(h.send { $0.start(workflow: workflow) }.displayed.count == 1)
        #expect(h.controller.credentials.count == 2)
    }
}
