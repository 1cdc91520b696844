import ScanFlow
import Testing

/// `barcode` mode (seeds 000 and 002): the front of a card is captured as an image, the
/// PDF417 barcode on its back is read; Y sends the person back to the front, Z to the back.
@Suite struct BarcodeTests {
    static let usCredential = Credential.Info(
        id: "id-6",
        category: .id,
        countries: ["USA": [Document(.drivingLicense), Document(.passport)]],
        documentMode: .barcode
    )

    /// A harness scanning the back of a US driving licence, its front taken.
    static func atBack() -> Harness {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(usCredential)) }
        h.send { $0.startCredential(id: "id-6") }
        h.send { $0.setConfiguration(country: "USA", document: Document(.drivingLicense)) }
        h.send { $0.startScanPart(.multipart) }
        h.send { $0.cameraStarted() }
        h.send { $0.imageCaptured(front) }
        return h
    }

    static let front = CapturedImage(bytes: [0xFF, 0xD8, 0x01], side: .front)
    static let back = CapturedImage(bytes: [0xFF, 0xD8, 0x02], side: .back)
    static let secondBack = CapturedImage(bytes: [0xFF, 0xD8, 0x03], side: .back)
    static let secondFront = CapturedImage(bytes: [0xFF, 0xD8, 0x04], side: .front)

    @Test func aDrivingLicenceIsScannedWithTheBarcodeAndAPassportWithoutIt() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Self.usCredential)) }
        h.send { $0.startCredential(id: "id-6") }
        h.send { $0.setConfiguration(country: "USA", document: Document(.drivingLicense)) }
        #expect(h.send { $0.startScanPart(.multipart) }.withoutTimers == [.display(.step(.prepare(.multipart))), .startCamera(.barcode)])
        #expect(h.controller.currentScanPart?.mode == .barcode)

        var passport = Harness()
        passport.send { $0.start(workflow: Fixtures.workflow(Self.usCredential)) }
        passport.send { $0.startCredential(id: "id-6") }
        passport.send { $0.setConfiguration(country: "USA", document: Document(.passport)) }
        // A passport page has no barcode.
        #expect(passport.send { $0.startScanPart(.front) }.withoutTimers == [.display(.step(.prepare(.front))), .startCamera(.docFinder)])
    }

    @Test func theResultRecordsBarcodeAsTheExtractionMethod() {
        var h = Self.atBack()
        h.send { $0.imageCaptured(Self.back) }
        h.send { $0.partProcessed(.accepted) }
        h.send { $0.confirm() }
        h.send { $0.finishScanPart() }
        h.send { $0.finishCredential() }
        h.send { $0.finish() }
        let end = h.send { $0.finalized() }
        #expect(end.result?.credentials == [.init(id: "id-6", category: .id, parts: [.multipart: .barcode], chipRead: false)])
    }

    @Test func yAtTheBackStartsTheCardAgainAtTheFront() {
        var h = Self.atBack()
        let hint = FlowError(.Y)
        #expect(h.send { $0.scanFailed(hint) }.withoutTimers == [.stopCamera, .display(.error(hint))])
        #expect(h.send { $0.retryAfterError() }.withoutTimers == [.display(.step(.prepare(.multipart))), .startCamera(.barcode)])
        #expect(
            h.send { $0.cameraStarted() }.withoutTimers == [
                .display(.step(.started(.multipart, .barcode))), .display(.step(.scanView(.multipart, .barcode))),
            ]
        )
        #expect(h.send { $0.imageCaptured(Self.secondFront) }.withoutTimers == [.display(.step(.nextPart(.back)))])
        #expect(h.send { $0.imageCaptured(Self.secondBack) }.contains(.uploadPart(.multipart, [Self.secondFront, Self.secondBack])))
    }

    @Test func zAtTheBackScansOnlyTheBackAgain() {
        var h = Self.atBack()
        let hint = FlowError(.Z)
        #expect(h.send { $0.scanFailed(hint) }.withoutTimers == [.stopCamera, .display(.error(hint))])
        #expect(h.send { $0.retryAfterError() }.withoutTimers == [.display(.step(.prepare(.multipart))), .startCamera(.barcode)])
        #expect(
            h.send { $0.cameraStarted() }.withoutTimers == [
                .display(.step(.started(.multipart, .barcode))), .display(.step(.scanView(.multipart, .barcode))),
                .display(.step(.nextPart(.back))),
            ]
        )
        #expect(
            h.send { $0.imageCaptured(Self.back) }.withoutTimers == [
                .stopCamera, .display(.step(.imageTaken(.multipart))), .uploadPart(.multipart, [Self.front, Self.back]),
                .display(.step(.processing(.multipart))),
            ]
        )
    }

    @Test func zFromTheBackendKeepsTheFrontAndYDoesNot() {
        var h = Self.atBack()
        h.send { $0.imageCaptured(Self.back) }
        h.send { $0.scanFailed(FlowError(.Z)) }
        h.send { $0.retryAfterError() }
        #expect(h.send { $0.cameraStarted() }.displayed.last == .step(.nextPart(.back)))
        #expect(h.send { $0.imageCaptured(Self.secondBack) }.contains(.uploadPart(.multipart, [Self.front, Self.secondBack])))

        var y = Self.atBack()
        y.send { $0.imageCaptured(Self.back) }
        y.send { $0.scanFailed(FlowError(.Y)) }
        y.send { $0.retryAfterError() }
        #expect(y.send { $0.cameraStarted() }.displayed.last == .step(.scanView(.multipart, .barcode)))
        #expect(y.send { $0.imageCaptured(Self.secondFront) }.withoutTimers == [.display(.step(.nextPart(.back)))])
    }

    @Test func zAtTheFrontScansTheFrontAgain() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Self.usCredential)) }
        h.send { $0.startCredential(id: "id-6") }
        h.send { $0.setConfiguration(country: "USA", document: Document(.drivingLicense)) }
        h.send { $0.startScanPart(.multipart) }
        h.send { $0.cameraStarted() }
        h.send { $0.scanFailed(FlowError(.Z)) }
        h.send { $0.retryAfterError() }
        #expect(h.send { $0.cameraStarted() }.displayed.last == .step(.scanView(.multipart, .barcode)))
        #expect(h.send { $0.imageCaptured(Self.front) }.withoutTimers == [.display(.step(.nextPart(.back)))])
    }

    @Test func aBarcodeThatCannotBeReadFallsBackToManual() {
        var h = Self.atBack()
        let fallback = h.send { $0.lowPerformance() }.withoutTimers
        #expect(
            fallback == [
                .stopCamera, .display(.update(.fallback(.lowPerformance))), .display(.step(.prepare(.multipart))),
                .startCamera(.manual),
            ]
        )
        #expect(h.controller.currentScanPart?.mode == .manual)
    }
}
