import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
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
