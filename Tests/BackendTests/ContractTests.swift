import AsyncHTTPClient
import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// The station's client against the reference backend over real HTTP on 127.0.0.1.
@Suite struct ContractTests {
    @Test func idWithChipJourneyIsProcessedWithEveryCheckSaid() async throws { try await Self.idWithChipJourney(.sqlite) }

    /// The camera's whole frames are parts only where the backend wants them: announced among
    /// an ID credential's parts and accepted then, refused (422) otherwise.
    @Test func fullFramesAreAnnouncedAndTakenOnlyWhenTheBackendWantsThem() async throws {
        for wanted in [true, false] {
            try await LoopbackBackend.with(configure: { $0.fullFrames = wanted }) { backend in
                let client = backend.client()
                let account = try await client.createAccount(Fixtures.account(key: 10015))
                let id = try account.credential(.ID)
                #expect((id.api.parts["FRONT_FULL_FRAME"] != nil) == wanted)
                #expect((id.api.parts["BACK_FULL_FRAME"] != nil) == wanted)
                #expect(id.api.parts["FRONT_FULL_FRAME"].map { $0.hasSuffix("/credentials/\(id.id)/parts/FRONT_FULL_FRAME") } ?? true)
                let upload = PartUpload(execution: ExecutionRef(account), credentialId: id.id, classifier: .frontFullFrame, body: Fixtures.jpeg(width: 1280, height: 720))
                if wanted {
                    #expect(try await client.uploadPart(upload).usability.decision == .PASSED)
                } else {
                    let error = await #expect(throws: BackendError.self) { try await client.uploadPart(upload) }
                    #expect(error?.httpStatus == 422)
                }
            }
        }
    }

    /// Fastfill (seed 002): a finalize that says extraction only gets the document's data and
    /// its checks, no face judged (even when face parts came) and no decision.
    @Test func anExtractionOnlyFinalizeExtractsAndDecidesNothing() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let (execution, _) = try await Self.pageAndFace(client)
            #expect(try await client.finalize(execution, extractionOnly: true).workflowExecution.status == .PROCESSED)
            let details = try await client.retrieve(execution)
            #expect(details.decision.type == .NOT_EXECUTED)
            #expect(details.idResult?.documentNumber != nil)
            #expect(details.idResult?.extractionMethod == "mrz")
            #expect(details.capabilities.extraction.first { $0.id == "extraction-MRZ" }?.decision == .PASSED)
            #expect(details.capabilities.similarity.isEmpty)
            #expect(details.capabilities.liveness.isEmpty)
            #expect(details.faceResult == nil)
        }
    }

    /// A finalize body that is not a FinalizeRequest is refused (400), and nothing is processed.
    @Test func aFinalizeWithABodyThatIsNoFinalizeRequestIsRefused() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(key: 10015))
            let token = try await backend.token()
            let (status, _, _) = try await backend.raw(
                .PUT, "/api/v1/accounts/\(account.account.id)/workflow-executions/\(account.workflowExecution.id)",
                headers: [("Authorization", "Bearer \(token)"), ("X-Session-Token", account.sdk.token), ("Content-Type", "application/json")],
                body: Data("[1,2]".utf8))
            #expect(status == 400)
            #expect(try await client.status(ExecutionRef(account)).workflowExecution.status != .PROCESSED)
        }
    }

    /// An ID-and-face execution (10013) with the data page, its MRZ and a face uploaded, no
    /// chip; its face credential's id.
    static func pageAndFace(_ client: HTTPVerificationBackend<ContinuousClock>) async throws -> (ExecutionRef, String) {
        let account = try await client.createAccount(Fixtures.account(key: 10013))
        let id = try account.credential(.ID)
        let face = try account.credential(.FACEMAP)
        let execution = ExecutionRef(account)
        _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
        _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
        _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: face.id, classifier: .face, body: Fixtures.jpeg(width: 640, height: 480)))
        return (execution, face.id)
    }

    /// The reference backend can ask for either kind of consent, both or none (`--consent`),
    /// spelled as the API does: `PASSIVE`, `ACTIVE`.
    @Test func theConsentItemsAreTheConfiguredOnes() async throws {
        let expected: [(ConsentOffer, [String])] = [(.passive, ["PASSIVE"]), (.active, ["ACTIVE"]), (.both, ["PASSIVE", "ACTIVE"]), (.none, [])]
        for (offer, types) in expected {
            try await LoopbackBackend.with(configure: { $0.consent = offer }) { backend in
                let account = try await backend.client().createAccount(Fixtures.account(key: 10015))
                #expect(account.consentItems.map(\.type) == types, "\(offer)")
                #expect(account.consentItems.allSatisfy { $0.url.hasPrefix(backend.baseURL) && !$0.text.isEmpty })
            }
        }
    }

    /// A probe asks the backend each time (a new access token, past the cache), so a station
    /// that refuses journeys offline sees it answer again, and sees its credentials refused.
    @Test func aProbeAsksTheBackendEachTime() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            try await client.probe()
            try await client.probe()
            let refused = await #expect(throws: BackendError.self) { try await backend.client(secret: "not-the-secret").probe() }
            #expect(refused?.kind == .credentials)
        }
    }

    static func idWithChipJourney(_ storage: TestStorage) async throws {
        try await LoopbackBackend.with(storage: storage) { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(key: 10015))
            #expect(!account.consentItems.isEmpty)
            let id = try account.credential(.ID)
            #expect(id.api.parts["FRONT"]?.hasPrefix(backend.baseURL) == true)
            let execution = ExecutionRef(account)

            let front = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            #expect(front.usability.decision == .PASSED)
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .back, body: Fixtures.jpeg(width: 1280, height: 800)))
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .nfc, body: Fixtures.chipPart(Fixtures.validMRZ)))
            #expect(try await client.status(execution).workflowExecution.status == .ACQUIRED)

            let finalized = try await client.finalize(execution)
            #expect(finalized.workflowExecution.status == .PROCESSED)

            let details = try await client.retrieve(execution)
            #expect(details.workflow.status == .PROCESSED)
            // Passive authentication is not executed without a trust store: a warning, not a pass.
            #expect(details.decision.type == .WARNING)
            let caps = details.capabilities
            #expect(caps.dataChecks.first { $0.id == "mrzMatchesChip" }?.decision == .PASSED)
            #expect(caps.dataChecks.first { $0.id == "expiry" }?.decision == .PASSED)
            #expect(caps.chipAuthentication.first { $0.id == "passiveAuthentication" }?.reason == "NO_CSCA_TRUST_STORE")
            #expect(caps.imageChecks.map(\.id).sorted() == ["brightness-BACK", "brightness-FRONT", "sharpness-BACK", "sharpness-FRONT"])
            #expect(caps.imageChecks.allSatisfy { $0.decision == .PASSED })
            #expect(details.idResult?.documentNumber == "L898902C3")
            #expect(details.idResult?.expiryDate == "2034-12-31")
            #expect(details.idResult?.dateOfBirth == "1974-08-12")
            #expect(details.idResult?.extractionMethod == "nfc")
            #expect(details.idResult?.idType == .PASSPORT)
        }
    }

    @Test func expiredDocumentAndMismatchedChipAreRejected() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            let id = try account.credential(.ID)
            let execution = ExecutionRef(account)
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .nfc, body: Fixtures.chipPart(Fixtures.expiredMRZ)))
            _ = try await client.finalize(execution)
            let details = try await client.retrieve(execution)
            #expect(details.decision.type == .REJECTED)
            #expect(details.capabilities.dataChecks.first { $0.id == "mrzMatchesChip" }?.reason == "MRZ_CHIP_MISMATCH")
            #expect(details.capabilities.dataChecks.first { $0.id == "expiry" }?.reason == "EXPIRED")
        }
    }

    @Test func badCheckDigitAndLowResolutionAreRejected() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(key: 10011))
            let id = try account.credential(.ID)
            let execution = ExecutionRef(account)
            let small = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 320, height: 200)))
            #expect(small.usability.decision == .REJECTED)
            #expect(small.usability.reason == "LOW_RESOLUTION")
            let notJPEG = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .back, body: Data("not a jpeg".utf8)))
            #expect(notJPEG.usability.reason == "NOT_A_JPEG")
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.badCheckDigitMRZ)))
            _ = try await client.finalize(execution)
            let details = try await client.retrieve(execution)
            #expect(details.decision.type == .REJECTED)
            #expect(details.capabilities.extraction.first { $0.id == "extraction-MRZ" }?.reason == "MRZ_CHECK_DIGIT")
        }
    }

    @Test func similarityAndLivenessAreNotExecutedAndSaidSo() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let (execution, face) = try await Self.pageAndFace(client)
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: face, classifier: .liveness(0)!, body: Fixtures.jpeg(width: 640, height: 480)))
            _ = try await client.finalize(execution)
            let details = try await client.retrieve(execution)
            // No chip read (no portrait to compare with) and a liveness frame without the
            // station's record of the LED: neither check can run, and each says why.
            #expect(details.capabilities.similarity.map(\.decision) == [.NOT_EXECUTED])
            #expect(details.capabilities.similarity.map(\.reason) == ["NO_CHIP_PORTRAIT"])
            #expect(details.capabilities.liveness.map(\.reason) == ["NO_LIVENESS_RECORD"])
            // Frames without the record: a liveness capture that did not finish, so the face
            // image is the fallback's (faceManual).
            #expect(details.faceResult == FaceResult(passed: nil, extractionMethod: "faceManual"))
            #expect(details.decision.type == .WARNING)
            #expect(details.idResult?.extractionMethod == "mrz")
        }
    }

    @Test func uploadsAreIdempotentByKey() async throws { try await Self.idempotentUploads(.sqlite) }

    static func idempotentUploads(_ storage: TestStorage) async throws {
        try await LoopbackBackend.with(storage: storage) { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            let id = try account.credential(.ID)
            let upload = PartUpload(execution: ExecutionRef(account), credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800), idempotencyKey: "outbox-record-0001")
            let first = try await client.uploadPart(upload)
            let again = try await client.uploadPart(upload)
            #expect(first == again)

            var other = upload
            other.body = Fixtures.jpeg(width: 1920, height: 1080)
            let error = await #expect(throws: BackendError.self) { try await client.uploadPart(other) }
            #expect(error?.httpStatus == 409)
            #expect(error?.kind == .rejected)
        }
    }

    @Test func finishedTransactionRefusesUploadsWithJButFinalizeRepeats() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            let id = try account.credential(.ID)
            let execution = ExecutionRef(account)
            _ = try await client.finalize(execution)
            #expect(try await client.finalize(execution).workflowExecution.status == .PROCESSED)
            let error = await #expect(throws: BackendError.self) {
                try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            }
            #expect(error?.kind == .transactionFinished)
            #expect(error?.isRetryable == false)
        }
    }

    @Test func sessionTokenLifetimeEndsTheTransactionWithJ() async throws { try await Self.sessionTokenExpiry(.sqlite) }

    static func sessionTokenExpiry(_ storage: TestStorage) async throws {
        try await LoopbackBackend.with(storage: storage) { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(tokenLifetime: 300))
            let id = try account.credential(.ID)
            let execution = ExecutionRef(account)
            backend.time.advance(seconds: 301)
            let error = await #expect(throws: BackendError.self) {
                try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            }
            #expect(error?.kind == .transactionFinished)
            #expect(try await client.status(execution).workflowExecution.status == .TOKEN_EXPIRED)
        }
    }

    @Test func startedJourneyThatOutlivesItsTokenIsSessionExpired() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(tokenLifetime: 300))
            let id = try account.credential(.ID)
            let execution = ExecutionRef(account)
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
            backend.time.advance(seconds: 301)
            let error = await #expect(throws: BackendError.self) { try await client.finalize(execution) }
            #expect(error?.kind == .transactionFinished)
            #expect(error?.cause == "SESSION_EXPIRED")
            #expect(try await client.status(execution).workflowExecution.status == .SESSION_EXPIRED)
        }
    }

    @Test func updateAccountStartsANewExecution() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let first = try await client.createAccount(Fixtures.account())
            let second = try await client.updateAccount(id: first.account.id, Fixtures.account())
            #expect(second.account.id == first.account.id)
            #expect(second.workflowExecution.id != first.workflowExecution.id)
        }
    }
}

@Suite struct WorkflowFilterTests {
    func journey(countries: [String], types: [IdType]) async throws -> WorkflowExecutionDetails {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            var request = Fixtures.account(key: 10011)
            request.workflowDefinition.credentials = [CredentialFilter(category: .ID, countries: countries, types: types)]
            let account = try await client.createAccount(request)
            let id = try account.credential(.ID)
            #expect(id.country?.values == countries)
            let execution = ExecutionRef(account)
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
            _ = try await client.finalize(execution)
            return try await client.retrieve(execution)
        }
    }

    @Test func documentOfAnAcceptedCountryAndTypePasses() async throws {
        let details = try await journey(countries: ["UTO", "DEU"], types: [.PASSPORT])
        #expect(details.capabilities.dataChecks.first { $0.id == "documentMatchesWorkflow" }?.decision == .PASSED)
        #expect(details.decision.type == .PASSED)
    }

    @Test func documentOutsideTheWorkflowFilterIsRejected() async throws {
        let wrongCountry = try await journey(countries: ["DEU"], types: [.PASSPORT])
        #expect(wrongCountry.capabilities.dataChecks.first { $0.id == "documentMatchesWorkflow" }?.reason == "COUNTRY_NOT_ACCEPTED")
        #expect(wrongCountry.decision.type == .REJECTED)
        let wrongType = try await journey(countries: ["UTO"], types: [.ID_CARD])
        #expect(wrongType.capabilities.dataChecks.first { $0.id == "documentMatchesWorkflow" }?.reason == "DOCUMENT_TYPE_NOT_ACCEPTED")
    }
}

@Suite struct PathSafetyTests {
    @Test func idsThatWouldChangeThePathAreRefusedBeforeSending() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let error = await #expect(throws: BackendError.self) {
                try await client.status(ExecutionRef(accountId: "../../oauth2", workflowExecutionId: "x", sessionToken: "t"))
            }
            #expect(error?.code == "rejected.status")
            #expect(await backend.faults.requestCount(pathContains: "/") == 0)
        }
    }
}

/// Key flows of the contract with the reference backend on PostgreSQL: the journey with
/// every check, idempotent uploads, token expiry and another station's account.
@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, Comment(rawValue: PostgresTestEnvironment.skipReason)))
struct PostgresContractIntegrationTests {
    @Test func idWithChipJourneyIsProcessedWithEveryCheckSaid() async throws { try await ContractTests.idWithChipJourney(.postgres) }
    @Test func uploadsAreIdempotentByKey() async throws { try await ContractTests.idempotentUploads(.postgres) }
    @Test func sessionTokenLifetimeEndsTheTransactionWithJ() async throws { try await ContractTests.sessionTokenExpiry(.postgres) }
    @Test func anotherStationsAccountIsNotFound() async throws { try await AuthorizationTests.anotherStationsAccount(.postgres) }
}
