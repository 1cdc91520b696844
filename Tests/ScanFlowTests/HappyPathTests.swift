import ScanFlow
import Testing

@Suite struct HappyPathTests {
    @Test func passportWithChipThenFace() {
        var h = Harness()
        let workflow = Fixtures.passportAndFace

        #expect(
            h.send { $0.start(workflow: workflow) } == [
                .scheduleTimeout(Timeout(.session, generation: 0), after: .seconds(900)),
                .display(.initialized(credentials: workflow.credentials, consentItems: workflow.consentItems)),
                .scheduleTimeout(Timeout(.inactivity, generation: 1), after: .seconds(60)),
            ]
        )
        // The passive item needs no answer; the active one does.
        #expect(h.send { $0.userConsented(itemID: "privacy", decision: true) }.withoutTimers == [])
        #expect(
            h.send { $0.startCredential(id: "id-1") }.withoutTimers == [
                .display(.credentialStarted(id: "id-1", isConfigured: true, parts: [.front]))
            ]
        )
        #expect(
            h.send { $0.startScanPart(.front) } == [
                .display(.step(.prepare(.front))),
                .startCamera(.docFinder),
                .cancelTimeout(.inactivity),
                .scheduleTimeout(Timeout(.device, generation: 1), after: .seconds(10)),
            ]
        )
        #expect(
            h.send { $0.cameraStarted() }.withoutTimers == [
                .display(.step(.started(.front, .docFinder))),
                .display(.step(.scanView(.front, .docFinder))),
            ]
        )
        #expect(h.timers[.device] == nil)
        #expect(
            h.send { $0.scanUpdate(.extractionState(.tilt(current: 12, target: 0))) } == [
                .display(.update(.extractionState(.tilt(current: 12, target: 0))))
            ]
        )
        let page = Fixtures.image(.front, key: Fixtures.mrzKey)
        #expect(
            h.send { $0.imageCaptured(page) }.withoutTimers == [
                .stopCamera,
                .display(.step(.imageTaken(.front))),
                .uploadPart(.front, [page]),
                .display(.step(.processing(.front))),
            ]
        )
        #expect(h.send { $0.partProcessed(.accepted) }.withoutTimers == [.display(.step(.confirmationView(.front)))])
        #expect(h.send { $0.confirm() }.withoutTimers == [.display(.step(.canFinish(.front)))])
        #expect(
            h.send { $0.finishScanPart() }.withoutTimers == [
                .display(.step(.addonScanPart(.nfc))),
                .display(.step(.started(.nfc, .nfc))),
                .display(.step(.scanView(.nfc, .nfc))),
                .startChipRead(Fixtures.mrzKey),
            ]
        )
        #expect(h.send { $0.chipReadStarted() } == [.display(.update(.nfcExtractionStarted)), .cancelTimeout(.inactivity)])
        #expect(h.send { $0.chipReadProgress(40) } == [.display(.update(.nfcExtractionProgress(40)))])
        #expect(
            h.send { $0.chipReadFinished() }.withoutTimers == [
                .display(.update(.nfcExtractionFinished)),
                .uploadChipData,
                .display(.step(.canFinish(.nfc))),
            ]
        )
        #expect(h.send { $0.finishScanPart() }.withoutTimers == [])
        #expect(h.controller.credentials[0].isComplete)
        #expect(h.send { $0.finishCredential() }.withoutTimers == [.display(.credentialFinished(id: "id-1"))])

        #expect(
            h.send { $0.startCredential(id: "face-1") }.withoutTimers == [
                .display(.credentialStarted(id: "face-1", isConfigured: true, parts: [.face]))
            ]
        )
        #expect(h.send { $0.startScanPart(.face) }.withoutTimers == [.display(.step(.prepare(.face))), .startCamera(.faceLiveness)])
        h.send { $0.cameraStarted() }
        #expect(h.send { $0.scanUpdate(.extractionState(.tiltFace(.left))) } == [.display(.update(.extractionState(.tiltFace(.left))))])
        let face = Fixtures.image(.face)
        #expect(
            h.send { $0.imageCaptured(face) }.withoutTimers == [
                .stopCamera, .display(.step(.imageTaken(.face))), .uploadPart(.face, [face]), .display(.step(.processing(.face))),
            ]
        )
        // A face has no confirmation view: accepted means done.
        #expect(h.send { $0.partProcessed(.accepted) }.withoutTimers == [.display(.step(.canFinish(.face)))])
        h.send { $0.finishScanPart() }
        h.send { $0.finishCredential() }
        #expect(h.send { $0.finish() } == [.display(.finalizing), .finalize(extractionOnly: false), .cancelTimeout(.inactivity)])

        let end = h.send { $0.finalized() }
        #expect(
            end.result
                == JourneyResult(
                    isSuccess: true,
                    verification: true,
                    credentials: [
                        .init(id: "id-1", category: .id, parts: [.front: .docFinder], chipRead: true),
                        .init(id: "face-1", category: .face, parts: [.face: .faceLiveness], chipRead: false),
                    ]
                )
        )
        #expect(end.suffix(2) == [.display(.finished(end.result!)), .wipeSession])
        #expect(Set(end.prefix(3)) == [.cancelTimeout(.session), .cancelTimeout(.inactivity), .cancelTimeout(.device)])
        #expect(h.controller.hasEnded)
        #expect(h.steps.filter { if case .imageTaken = $0 { true } else { false } }.count == 2)
    }

    @Test func identityCardFrontThenBackAsOneMultipart() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Fixtures.idCardCredential)) }
        #expect(
            h.send { $0.startCredential(id: "id-2") }.withoutTimers == [
                .display(.credentialStarted(id: "id-2", isConfigured: false, parts: []))
            ]
        )
        #expect(h.controller.credentials[0].supportedCountries == ["AUT", "DEU"])
        #expect(h.controller.credentials[0].physicalDocuments(for: "AUT") == [Document(.identityCard), Document(.passport)])
        #expect(h.controller.credentials[0].digitalDocuments(for: "AUT") == [])
        #expect(!h.controller.credentials[0].isSupportedConfiguration(country: "AUT", document: Document(.visa)))
        #expect(h.send { $0.startScanPart(.multipart) } == [.display(.logicalError(.credentialNotCompleted))])
        #expect(
            h.send { $0.setConfiguration(country: "AUT", document: Document(.visa)) }.withoutTimers == [
                .display(.configurationNotSupported(id: "id-2"))
            ]
        )
        #expect(
            h.send { $0.setConfiguration(country: "AUT", document: Document(.identityCard)) }.withoutTimers == [
                .display(.credentialConfigured(id: "id-2", parts: [.multipart]))
            ]
        )
        h.send { $0.startScanPart(.multipart) }
        h.send { $0.cameraStarted() }
        let front = Fixtures.image(.front)
        let back = Fixtures.image(.back)
        #expect(h.send { $0.imageCaptured(front) }.withoutTimers == [.display(.step(.nextPart(.back)))])
        #expect(
            h.send { $0.imageCaptured(back) }.withoutTimers == [
                .stopCamera,
                .display(.step(.imageTaken(.multipart))),
                .uploadPart(.multipart, [front, back]),
                .display(.step(.processing(.multipart))),
            ]
        )
        h.send { $0.partProcessed(.accepted) }
        h.send { $0.confirm() }
        // No chip reading configured: finishing the part offers no add-on.
        #expect(h.send { $0.finishScanPart() }.withoutTimers == [])
        h.send { $0.finishCredential() }
        h.send { $0.finish() }
        let result = h.send { $0.finalized() }.result
        #expect(result?.credentials == [.init(id: "id-2", category: .id, parts: [.multipart: .docFinder], chipRead: false)])
    }

    @Test func multiImageSideSendsNextPosition() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Fixtures.faceCredential)) }
        h.send { $0.startCredential(id: "face-1") }
        h.send { $0.startScanPart(.face) }
        h.send { $0.cameraStarted() }
        #expect(h.send { $0.imageCaptured(Fixtures.image(.face), isLastOfSide: false) }.withoutTimers == [.display(.update(.nextPosition(nil)))])
        #expect(h.send { $0.imageCaptured(Fixtures.image(.face), isLastOfSide: false) }.withoutTimers == [.display(.update(.nextPosition(nil)))])
        let last = h.send { $0.imageCaptured(Fixtures.image(.face)) }
        #expect(last.contains(.uploadPart(.face, [Fixtures.image(.face), Fixtures.image(.face), Fixtures.image(.face)])))
        // One imageTaken per part, however many images it took.
        #expect(h.steps.filter { $0 == .imageTaken(.face) }.count == 1)
    }

    @Test func documentCredentialByFile() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Fixtures.documentCredential)) }
        #expect(
            h.send { $0.startCredential(id: "doc-1") }.withoutTimers == [
                .display(.credentialStarted(id: "doc-1", isConfigured: false, parts: []))
            ]
        )
        #expect(h.controller.credentials[0].isSupportedConfiguration(acquireMode: .file))
        #expect(h.send { $0.setAcquireMode(.file) }.withoutTimers == [.display(.credentialConfigured(id: "doc-1", parts: [.document]))])
        #expect(
            h.send { $0.startScanPart(.document) }.withoutTimers == [
                .display(.step(.started(.document, .file))),
                .display(.step(.scanView(.document, .file))),
                .requestFile,
            ]
        )
        // No camera in file mode, so no shutter either.
        #expect(h.send { $0.takeImage() } == [.display(.logicalError(.takePictureNotAllowed))])
        let file = Fixtures.image(.document)
        #expect(
            h.send { $0.imageCaptured(file) }.withoutTimers == [
                .display(.step(.imageTaken(.document))),
                .uploadPart(.document, [file]),
                .display(.step(.processing(.document))),
            ]
        )
        let result = h.acceptAndFinishJourney()
        #expect(result?.credentials.first?.parts == [.document: .file])
        #expect(!h.log.contains { if case .startCamera = $0 { true } else { false } })
    }

    @Test func fastfillExtractsWithoutVerification() {
        var h = Harness()
        var credential = Fixtures.idCardCredential
        credential.extractionOnly = true
        h.send { $0.start(workflow: Fixtures.workflow(credential, flow: .fastfill)) }
        h.send { $0.startCredential(id: "id-2") }
        // Fastfill takes no paper documents except German identity cards (seed 002).
        #expect(h.controller.credentials[0].isSupportedConfiguration(country: "DEU", document: Document(.identityCard, .paper)))
        #expect(h.send { $0.setConfiguration(country: "AUT", document: Document(.passport)) }.withoutTimers.count == 1)
        h.send { $0.startScanPart(.front) }
        h.send { $0.cameraStarted() }
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        h.send { $0.partProcessed(.accepted) }
        h.send { $0.confirm() }
        h.send { $0.finishScanPart() }
        h.send { $0.finishCredential() }
        #expect(h.send { $0.finish() }.withoutTimers == [.display(.finalizing), .finalize(extractionOnly: true)])
        let result = h.send { $0.finalized() }.result
        #expect(result?.verification == false)
        #expect(result?.isSuccess == true)
    }

    @Test(arguments: [JourneyResult.AuthenticationOutcome.SUCCESS, .FAILED])
    func authenticationAgainstEnrollment(outcome: JourneyResult.AuthenticationOutcome) {
        var h = Harness(configuration: .init(livenessProviderVersion: 3))
        var workflow = Fixtures.workflow(Fixtures.faceCredential, flow: .authentication(.enrollment("enr-77")))
        workflow.livenessProviderVersion = 3
        h.send { $0.start(workflow: workflow) }
        h.scanAcceptedFace()
        h.send { $0.finish() }
        let result = h.send { $0.finalized(outcome) }.result
        #expect(result?.authentication == outcome)
        #expect(result?.isSuccess == true)
    }

    @Test func authenticationWithoutOutcomeEndsWithM() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Fixtures.faceCredential, flow: .authentication(.authenticationTransaction("t-1")))) }
        h.scanAcceptedFace()
        h.send { $0.finish() }
        let end = h.send { $0.finalized() }
        #expect(end.displayed.contains(.error(FlowError(.M))))
        #expect(end.result?.error?.code == "M000000")
        #expect(end.result?.isSuccess == false)
    }

    @Test func invalidEnrollmentReferenceEndsWithL() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Fixtures.faceCredential, flow: .authentication(.enrollment("gone")))) }
        let end = h.send { $0.sessionFailed(FlowError(.L)) }
        #expect(end.result?.error == FlowError(.L))
        #expect(end.last == .wipeSession)
        #expect(FlowError(.L).message == "Enrollment transaction reference invalid")
    }

    @Test func aDataCredentialHasNothingToScan() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Credential.Info(id: "data-1", category: .data))) }
        #expect(
            h.send { $0.startCredential(id: "data-1") }.displayed == [
                .credentialStarted(id: "data-1", isConfigured: true, parts: [])
            ]
        )
        #expect(h.send { $0.startScanPart(.front) } == [.display(.logicalError(.unknownScanPart))])
        #expect(h.send { $0.finishCredential() }.displayed == [.credentialFinished(id: "data-1")])
        h.send { $0.finish() }
        #expect(h.send { $0.finalized() }.result?.credentials == [.init(id: "data-1", category: .data, parts: [:], chipRead: false)])
    }
}
