import ScanFlow
import Testing

/// A document credential taken with the camera: a paper document, page by page. Each page
/// is an image of the one `document` part; `nextPosition` after each, one `imageTaken` when
/// the person says the last page was taken (`lastPage`) or the maximum is reached.
@Suite struct PaperDocumentTests {
    static let paper = Credential.Info(id: "doc-1", category: .document, acquireModes: [.camera])

    /// A journey at the scan view of the paper document, the camera running.
    static func scanning(maxPages: Int = 10) -> Harness {
        var h = Harness(configuration: .init(maxDocumentPages: maxPages))
        h.send { $0.start(workflow: Fixtures.workflow(paper)) }
        h.send { $0.startCredential(id: "doc-1") }
        h.send { $0.startScanPart(.document) }
        h.send { $0.cameraStarted() }
        return h
    }

    static func page(_ n: Int) -> CapturedImage { CapturedImage(bytes: [0xFF, 0xD8, UInt8(n)], side: .document) }

    @Test func oneCameraModeIsPreselectedAndPagesAreFoundAutomatically() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Self.paper)) }
        #expect(h.send { $0.startCredential(id: "doc-1") }.withoutTimers == [.display(.credentialStarted(id: "doc-1", isConfigured: true, parts: [.document]))])
        let start = h.send { $0.startScanPart(.document) }.withoutTimers
        #expect(start == [.display(.step(.prepare(.document))), .startCamera(.docFinder)])
        #expect(h.send { $0.cameraStarted() }.withoutTimers == [.display(.step(.started(.document, .docFinder))), .display(.step(.scanView(.document, .docFinder)))])
    }

    @Test func eachPageSendsNextPositionWithTheCountAndTheLastPageEndsThePart() {
        var h = Self.scanning(maxPages: 5)
        #expect(h.send { $0.imageCaptured(Self.page(1), isLastOfSide: false) }.withoutTimers == [.display(.update(.nextPosition(Scan.ImageCount(taken: 1, maximum: 5))))])
        #expect(h.send { $0.imageCaptured(Self.page(2), isLastOfSide: false) }.withoutTimers == [.display(.update(.nextPosition(Scan.ImageCount(taken: 2, maximum: 5))))])
        #expect(h.send { $0.imageCaptured(Self.page(3), isLastOfSide: false) }.withoutTimers == [.display(.update(.nextPosition(Scan.ImageCount(taken: 3, maximum: 5))))])
        #expect(h.steps.filter { if case .imageTaken = $0 { true } else { false } }.isEmpty)
        #expect(
            h.send { $0.lastPage() }.withoutTimers == [
                .stopCamera,
                .display(.step(.imageTaken(.document))),
                .uploadPart(.document, [Self.page(1), Self.page(2), Self.page(3)]),
                .display(.step(.processing(.document))),
            ])
        let result = h.acceptAndFinishJourney()
        #expect(result?.isSuccess == true)
        #expect(result?.credentials.first?.parts == [.document: .docFinder])
        // One imageTaken however many pages.
        #expect(h.steps.filter { $0 == .imageTaken(.document) }.count == 1)
    }

    @Test func theMaximumEndsThePartByItself() {
        var h = Self.scanning(maxPages: 2)
        h.send { $0.imageCaptured(Self.page(1), isLastOfSide: false) }
        let second = h.send { $0.imageCaptured(Self.page(2), isLastOfSide: false) }.withoutTimers
        #expect(second.contains(.display(.step(.imageTaken(.document)))))
        #expect(second.contains(.uploadPart(.document, [Self.page(1), Self.page(2)])))
        #expect(!second.contains(.display(.update(.nextPosition(Scan.ImageCount(taken: 2, maximum: 2))))))
        // The part is processing: a page in flight and a late "last page" are not pages.
        #expect(h.send { $0.imageCaptured(Self.page(3), isLastOfSide: false) }.isEmpty)
        #expect(h.send { $0.lastPage() } == [.display(.logicalError(.scanPartNotCompleted))])
    }

    @Test func lastPageBeforeAnyPageOrOnAOneImagePartIsALogicalError() {
        var h = Self.scanning()
        #expect(h.send { $0.lastPage() } == [.display(.logicalError(.scanPartNotCompleted))])
        var id = Stage.scanning.harness()
        id.send { $0.imageCaptured(Fixtures.image(.front), isLastOfSide: false) }
        #expect(id.send { $0.lastPage() } == [.display(.logicalError(.scanPartNotCompleted))])
    }

    @Test func aRetakeStartsAgainFromTheFirstPage() {
        var h = Self.scanning(maxPages: 4)
        h.send { $0.imageCaptured(Self.page(1), isLastOfSide: false) }
        h.send { $0.imageCaptured(Self.page(2), isLastOfSide: false) }
        h.send { $0.lastPage() }
        h.send { $0.partProcessed(.rejected([.document: .blurry])) }
        #expect(h.send { $0.retake() }.withoutTimers == [.display(.step(.prepare(.document))), .startCamera(.docFinder)])
        h.send { $0.cameraStarted() }
        #expect(h.send { $0.imageCaptured(Self.page(7), isLastOfSide: false) }.withoutTimers == [.display(.update(.nextPosition(Scan.ImageCount(taken: 1, maximum: 4))))])
        #expect(h.send { $0.lastPage() }.withoutTimers.contains(.uploadPart(.document, [Self.page(7)])))
    }

    @Test func theLastPageMayBeSaidWhileTheHelpScreenShows() {
        var h = Self.scanning()
        h.send { $0.imageCaptured(Self.page(1), isLastOfSide: false) }
        #expect(h.send { $0.pauseScan() }.withoutTimers == [.pauseDetection])
        #expect(h.send { $0.lastPage() }.withoutTimers.contains(.uploadPart(.document, [Self.page(1)])))
    }

    @Test func aNetworkErrorSendsThePagesAgain() {
        var h = Self.scanning()
        h.send { $0.imageCaptured(Self.page(1), isLastOfSide: false) }
        h.send { $0.imageCaptured(Self.page(2), isLastOfSide: false) }
        h.send { $0.lastPage() }
        h.send { $0.scanFailed(FlowError(.A)) }
        #expect(h.send { $0.retryAfterError() }.withoutTimers == [.uploadPart(.document, [Self.page(1), Self.page(2)]), .display(.step(.processing(.document)))])
    }

    @Test func fileModeTakesOneFile() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.workflow(Credential.Info(id: "doc-1", category: .document, acquireModes: [.file]))) }
        h.send { $0.startCredential(id: "doc-1") }
        #expect(h.send { $0.startScanPart(.document) }.withoutTimers.contains(.requestFile))
        // No pages in file mode: the file is the whole document.
        #expect(h.send { $0.lastPage() } == [.display(.logicalError(.scanPartNotCompleted))])
        #expect(h.send { $0.imageCaptured(Self.page(1)) }.withoutTimers.contains(.uploadPart(.document, [Self.page(1)])))
    }
}
