import Backend
import Foundation
import Imaging
import KioskTestKit
@testable import ReferenceBackend
import Testing

/// A paper document (DOCUMENT credential) uploaded page by page as PAGE_1...PAGE_n to the
/// reference backend over real HTTP: each page judged on its own, the pages complete.
@Suite struct DocumentPagesTests {
    static func documentAccount() -> AccountRequest {
        AccountRequest(
            customerInternalReference: "kiosk-test/0002",
            workflowDefinition: WorkflowDefinition(key: 10, credentials: [CredentialFilter(category: .DOCUMENT)]))
    }

    @Test func pageClassifiersAreOneToNinetyNineWithoutALeadingZero() {
        #expect(PartClassifier.page(1)?.rawValue == "PAGE_1")
        #expect(PartClassifier.page(99)?.pageNumber == 99)
        #expect(PartClassifier.page(0) == nil)
        #expect(PartClassifier.page(100) == nil)
        #expect(PartClassifier(rawValue: "PAGE_01") == nil)
        #expect(PartClassifier(rawValue: "PAGE_") == nil)
        #expect(PartClassifier(rawValue: "PAGE_x") == nil)
        #expect(PartClassifier.front.pageNumber == nil)
        #expect(PartClassifier.page(3)?.isImage == true)
    }

    @Test func everyPageIsJudgedAndTheDocumentPasses() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Self.documentAccount())
            let document = try account.credential(.DOCUMENT)
            #expect(document.api.parts["PAGE_1"] != nil)
            let execution = ExecutionRef(account)
            for page in 1...3 {
                let answer = try await client.uploadPart(
                    PartUpload(execution: execution, credentialId: document.id, classifier: .page(page)!, body: Fixtures.jpeg(width: 1470, height: 2079)))
                #expect(answer.usability.decision == .PASSED)
            }
            _ = try await client.finalize(execution)
            let details = try await client.retrieve(execution)
            #expect(details.capabilities.usability.map(\.id).sorted() == ["usability-PAGE_1", "usability-PAGE_2", "usability-PAGE_3"])
            #expect(details.capabilities.dataChecks.first { $0.id == "documentPages" }?.decision == .PASSED)
            #expect(details.decision.type == .PASSED)
        }
    }

    @Test func aSmallPageAndAMissingPageAreRejected() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Self.documentAccount())
            let document = try account.credential(.DOCUMENT)
            let execution = ExecutionRef(account)
            // An ID document's size is too small for a page of print.
            let small = try await client.uploadPart(
                PartUpload(execution: execution, credentialId: document.id, classifier: .page(1)!, body: Fixtures.jpeg(width: 1280, height: 800)))
            #expect(small.usability.reason == "LOW_RESOLUTION")
            _ = try await client.uploadPart(
                PartUpload(execution: execution, credentialId: document.id, classifier: .page(3)!, body: Fixtures.jpeg(width: 1470, height: 2079)))
            _ = try await client.finalize(execution)
            let details = try await client.retrieve(execution)
            #expect(details.capabilities.dataChecks.first { $0.id == "documentPages" }?.reason == "MISSING_PAGE")
            #expect(details.decision.type == .REJECTED)
        }
    }

    /// A page of print is white paper: as bright as a good page is (mean luma about 234), it
    /// passes as a page and is too bright as an ID document's side.
    @Test func aWhitePageIsNotTooBrightAsAPage() {
        let width = 1470, height = 2079
        var pixels = [UInt8](repeating: 245, count: width * height)
        for y in 0..<height where y % 40 < 3 {
            for x in 100..<(width - 100) where x % 9 < 6 { pixels[y * width + x] = 20 }
        }
        let page = TestImages.jpeg(LumaImage(width: width, height: height, pixels: pixels))
        let asPage = ReferenceChecks.assessImage(.page(1)!, body: page, credentialId: "d", thresholds: ImageQualityThresholds())
        let asFront = ReferenceChecks.assessImage(.front, body: page, credentialId: "d", thresholds: ImageQualityThresholds())
        #expect(asPage.brightness.decision == .PASSED, "\(asPage.brightness)")
        #expect(asPage.usability.decision == .PASSED, "\(asPage.usability)")
        #expect(asFront.brightness.reason == "TOO_BRIGHT")
        // Washed out, a page is still too bright.
        let white = TestImages.jpeg(LumaImage(width: width, height: height, pixels: [UInt8](repeating: 254, count: width * height)))
        #expect(ReferenceChecks.assessImage(.page(2)!, body: white, credentialId: "d", thresholds: ImageQualityThresholds()).brightness.reason == "TOO_BRIGHT")
    }

    @Test func anIDCredentialTakesNoPages() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(key: 10011))
            let id = try account.credential(.ID)
            let upload = PartUpload(execution: ExecutionRef(account), credentialId: id.id, classifier: .page(1)!, body: Fixtures.jpeg(width: 1470, height: 2079))
            let error = await #expect(throws: BackendError.self) { try await client.uploadPart(upload) }
            #expect(error?.httpStatus == 422)
        }
    }
}
