import ScanFlow
import Testing

@Suite struct ErrorTests {
    @Test func aNetworkErrorDuringUploadIsRetriedWithTheSameImages() {
        var h = Stage.processing.harness()
        let network = FlowError(.A, detail: "100503")
        #expect(h.send { $0.scanFailed(network) }.withoutTimers == [.display(.error(network))])
        #expect(h.timers[.inactivity] != nil)
        let retry = h.send { $0.retryAfterError() }.withoutTimers
        #expect(retry == [.uploadPart(.front, [Fixtures.image(.front, key: Fixtures.mrzKey)]), .display(.step(.processing(.front)))])
        #expect(h.send { $0.retryAfterError() } == [.display(.logicalError(.errorNotRetryable))])
        #expect(h.send { $0.partProcessed(.accepted) }.displayed == [.step(.confirmationView(.front))])
    }

    @Test(arguments: [FlowError.Family.Y, .Z])
    func sideHintsScanAgain(_ family: FlowError.Family) {
        var h = Stage.processing.harness()
        let hint = FlowError(family)
        #expect(h.send { $0.scanFailed(hint) }.withoutTimers == [.display(.error(hint))])
        #expect(h.send { $0.retryAfterError() }.withoutTimers == [.display(.step(.prepare(.front))), .startCamera(.docFinder)])
    }

    @Test func aRetryableErrorWhileScanningStopsTheCamera() {
        var h = Stage.scanning.harness()
        #expect(h.send { $0.scanFailed(FlowError(.E, detail: "000000")) }.withoutTimers == [.stopCamera, .display(.error(FlowError(.E)))])
        #expect(h.send { $0.retryAfterError() }.contains(.startCamera(.docFinder)))
    }

    @Test(arguments: [FlowError.Family.B, .C, .F, .I, .M, .N])
    func nonRetryableErrorsEndTheJourney(_ family: FlowError.Family) {
        var h = Stage.processing.harness()
        let error = FlowError(family)
        let end = h.send { $0.scanFailed(error) }
        #expect(end.displayed.first == .error(error))
        #expect(end.result?.error == error)
        #expect(end.last == .wipeSession)
    }

    @Test func finalisingIsRetriedAfterANetworkError() {
        var h = Stage.finishingFailed.harness()
        #expect(h.send { $0.finalized() } == [])
        #expect(h.send { $0.retryAfterError() }.withoutTimers == [.display(.finalizing), .finalize(extractionOnly: false)])
        #expect(h.send { $0.finalized() }.result?.isSuccess == true)
    }

    @Test func missingImagesEndWithN() {
        var h = Stage.finishing.harness()
        let end = h.send { $0.finalizeFailed(FlowError(.N)) }
        #expect(end.result?.error?.code == "N000000")
        #expect(end.displayed.first == .error(FlowError(.N)))
    }

    @Test func aCameraLostWhileScanningEndsWithH() {
        var h = Stage.scanning.harness()
        let end = h.send { $0.deviceLost(.camera) }
        #expect(end.first == .stopCamera)
        #expect(end.result?.error == .cameraUnavailable)
    }

    @Test func aCameraLostBetweenPartsEndsWhenItIsNeeded() {
        var h = Stage.confirmation.harness()
        #expect(h.send { $0.deviceLost(.camera) } == [.display(.update(.cameraAvailable(false)))])
        let end = h.send { $0.retake() }
        #expect(end.result?.error == .cameraUnavailable)
        // The camera never started again, so there is none to stop.
        #expect(!end.contains(.stopCamera))
        #expect(!end.contains { $0.startsCameraForTest })
    }

    @Test func aRestoredCameraIsUsedAgain() {
        var h = Stage.confirmation.harness()
        h.send { $0.deviceLost(.camera) }
        #expect(h.send { $0.deviceRestored(.camera) } == [.display(.update(.cameraAvailable(true)))])
        #expect(h.send { $0.retake() }.contains(.startCamera(.docFinder)))
    }

    @Test func aRetryableSessionErrorIsOnlyShown() {
        var h = Stage.selection.harness()
        #expect(h.send { $0.sessionFailed(FlowError(.A)) } == [.display(.error(FlowError(.A)))])
        #expect(h.send { $0.sessionFailed(FlowError(.I)) }.result?.error == FlowError(.I))
    }

    @Test func codesAndRetryabilityFollowTheSeeds() {
        let retryable = Set(FlowError.Family.allCases.filter { FlowError($0).isRetryable })
        #expect(retryable == [.A, .E, .Y, .Z])
        #expect(FlowError(.C, detail: "000401").code == "C000401")
        #expect(FlowError(.G).message == "Cancelled by end-user")
        #expect(FlowError(.J).message == "Transaction already finished")
        #expect(FlowError(.H).description == "H000000 The camera is currently not available")
    }

    @Test func rejectReasonsKeepTheSeedsCodes() {
        let table = Dictionary(uniqueKeysWithValues: RejectReason.allCases.map { ($0.code, $0.message) })
        #expect(
            table == [
                102: "BLACK_WHITE_COPY", 103: "COLOR_PHOTOCOPY", 104: "DIGITAL_COPY", 200: "NOT_READABLE", 201: "NO_DOC",
                206: "MISSING_BACK", 214: "MISSING_FRONT", 401: "UNSUPPORTED_DOCUMENT", 2001: "BLURRY",
                2003: "MISSING_PART_DOC", 2004: "HIDDEN_PART_DOC", 2005: "DAMAGED_DOCUMENT", 2006: "GLARE",
            ]
        )
    }
}

extension Action {
    var startsCameraForTest: Bool {
        if case .startCamera = self { return true }
        return false
    }
}
