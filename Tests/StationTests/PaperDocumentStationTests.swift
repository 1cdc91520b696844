import Backend
import Capture
import Display
import Foundation
import ScanFlow
@testable import Station
import Testing

/// The `document` preset: the backend's DOCUMENT credential, a paper document taken page by
/// page with the camera, each page queued for the backend as PAGE_<n>.
@Suite struct PaperDocumentStationTests {
    static let response = AccountResponse(
        timestamp: "", account: Ref(id: "account-1"), sdk: .init(token: "token-1"), consentItems: [],
        workflowExecution: .init(id: "execution-1", credentials: [
            CredentialResponse(id: "doc-1", category: .DOCUMENT, api: .init(parts: ["PAGE_1": "p"], workflowExecution: "execution-1"))
        ]), dataCenter: .EU)

    static func machine(maxPages: Int = 10) -> StationMachine {
        var controller = Controller.Configuration()
        controller.maxDocumentPages = maxPages
        var machine = StationMachine(
            settings: StationLoop.Settings(profile: WorkflowProfile(preset: .document), start: [.touch], controller: controller, useFlash: true))
        _ = machine.start(now: .zero)
        _ = machine.devicesProbed([StationMachineTests.camera, StationMachineTests.reader])
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(1))
        _ = machine.journeyStarted(generation: 1, .success(.online(response)), now: .seconds(2))
        return machine
    }

    static func page(_ n: UInt8) -> CapturedImage { CapturedImage(bytes: [0xFF, 0xD8, n, 0xFF, 0xD9], side: .document) }

    static func uploads(_ actions: [StationMachine.Action]) -> [PartUpload] {
        actions.compactMap { if case .enqueue(.part(let upload)) = $0 { upload } else { nil } }
    }

    @Test func thePresetAsksForADocumentCredentialOnly() {
        let request = WorkflowProfile(preset: .document, countries: ["AUT"]).accountRequest(reference: "kiosk-1")
        #expect(request.workflowDefinition.credentials?.map(\.category) == [.DOCUMENT])
        let workflow = WorkflowProfile(preset: .document).workflow(for: Self.response, token: SessionToken("t"))
        #expect(workflow.credentials.map(\.category) == [.document])
        // A kiosk takes paper with its camera: no file mode is offered.
        #expect(workflow.credentials.first?.acquireModes == [.camera])
    }

    @Test func eachPageIsQueuedAsItsOwnPageAfterTheLastPageIsSaid() {
        var machine = Self.machine()
        let open = machine.input(.flow(.startCredential(id: "doc-1")), from: nil, now: .seconds(3))
        #expect(open.contains(.show(.credentialStarted(id: "doc-1", isConfigured: true, parts: [.document]))))
        let start = machine.input(.flow(.startScanPart(.document)), from: nil, now: .seconds(4))
        // No flash for paper: the pair is for an ID document's front.
        #expect(start.contains(.startCapture(generation: 1, mode: .docFinder, part: .document, useFlash: false)))
        _ = machine.captureEvent(generation: 1, .started, now: .seconds(5))
        for n in 1...3 {
            let taken = machine.captureEvent(generation: 1, .image(Self.page(UInt8(n)), isLastOfSide: false), now: .seconds(5 + Int64(n)))
            #expect(taken.contains(.show(.update(.nextPosition(Scan.ImageCount(taken: n, maximum: 10))))))
            // The camera keeps running for the next page; nothing is queued yet.
            #expect(!taken.contains(.stopCapture))
            #expect(Self.uploads(taken).isEmpty)
        }
        let last = machine.input(.flow(.lastPage), from: nil, now: .seconds(9))
        #expect(last.contains(.stopCapture))
        #expect(last.contains(.show(.step(.imageTaken(.document)))))
        let uploads = Self.uploads(last)
        #expect(uploads.map(\.classifier.rawValue) == ["PAGE_1", "PAGE_2", "PAGE_3"])
        #expect(uploads.map { [UInt8]($0.body)[2] } == [1, 2, 3])
        #expect(uploads.allSatisfy { $0.credentialId == "doc-1" && $0.execution.workflowExecutionId == "execution-1" })
        #expect(last.contains(.answerLater(generation: 1, .partProcessed(.accepted))))
    }

    @Test func aPageTheStationFoundUnusableIsNotUploadedAndThePagesAreTakenAgain() {
        var machine = Self.machine()
        _ = machine.input(.flow(.startCredential(id: "doc-1")), from: nil, now: .seconds(3))
        _ = machine.input(.flow(.startScanPart(.document)), from: nil, now: .seconds(4))
        _ = machine.captureEvent(generation: 1, .started, now: .seconds(5))
        _ = machine.captureEvent(generation: 1, .image(Self.page(1), isLastOfSide: false), now: .seconds(6))
        let blurred = CapturedImage(bytes: [0xFF, 0xD8, 2, 0xFF, 0xD9], side: .document, rejectReason: .blurry)
        _ = machine.captureEvent(generation: 1, .image(blurred, isLastOfSide: false), now: .seconds(7))
        let last = machine.input(.flow(.lastPage), from: nil, now: .seconds(8))
        #expect(Self.uploads(last).isEmpty)
        #expect(last.contains(.answerLater(generation: 1, .partProcessed(.rejected([.document: .blurry])))))
    }

    @Test func theMaximumEndsThePartWithoutTheButton() {
        var machine = Self.machine(maxPages: 2)
        _ = machine.input(.flow(.startCredential(id: "doc-1")), from: nil, now: .seconds(3))
        _ = machine.input(.flow(.startScanPart(.document)), from: nil, now: .seconds(4))
        _ = machine.captureEvent(generation: 1, .started, now: .seconds(5))
        _ = machine.captureEvent(generation: 1, .image(Self.page(1), isLastOfSide: false), now: .seconds(6))
        let second = machine.captureEvent(generation: 1, .image(Self.page(2), isLastOfSide: false), now: .seconds(7))
        #expect(Self.uploads(second).map(\.classifier.rawValue) == ["PAGE_1", "PAGE_2"])
        #expect(second.contains(.stopCapture))
    }

    @Test func maxPagesIsConfiguredAndChecked() throws {
        let yaml = "journey:\n  workflow: document\n  max-pages: 4\n"
        let configuration = try Configuration.parse(yaml, file: "test.yaml")
        #expect(configuration.journey.workflow == .document)
        #expect(configuration.journey.maxPages == 4)
        #expect(StationLoop.Settings(configuration).controller.maxDocumentPages == 4)
        #expect(throws: ConfigurationError.self) { try Configuration.parse("journey:\n  max-pages: 0\n", file: "test.yaml") }
        #expect(throws: ConfigurationError.self) { try Configuration.parse("journey:\n  max-pages: 51\n", file: "test.yaml") }
    }
}
