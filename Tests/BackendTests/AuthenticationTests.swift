import Backend
import Foundation
import KioskTestKit
import MRTD
import ReferenceBackend
import Testing
import VirtualPassport

/// The Authentication of seed 004 at the reference backend: a face against the face of an
/// enrollment (a verification of the same client that PASSED), SUCCESS as PASSED and FAILED
/// as REJECTED, and every reference that cannot be used refused as L.
@Suite struct AuthenticationTests {
    static let validity: ClosedRange<Int64> = 1_780_000_000...1_800_000_000

    /// Two people's face images: real JPEGs of different content.
    static let anna = Fixtures.jpeg(width: 640, height: 480)
    static let ben = Fixtures.jpeg(width: 656, height: 480)

    /// The face credential's parts: the face image, one liveness frame and the record.
    static func uploadFace(_ face: Data, credential: String, execution: ExecutionRef, client: some VerificationBackend) async throws {
        _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: credential, classifier: .face, body: face))
        _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: credential, classifier: .liveness(0)!, body: face))
        let record = Data(#"{"attempts": 1, "frames": [{"index": 0, "attempt": 1, "lit": true}]}"#.utf8)
        _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: credential, classifier: .livenessRecord, body: record))
    }

    /// Anna's ID and Identity verification (10013: her passport with its chip, her face),
    /// finished; its decision is PASSED when `passes`.
    static func enroll(_ backend: LoopbackBackend, faces: LabelledFaces, issuer: TestIssuer, passes: Bool = true) async throws -> String {
        let client = backend.client()
        let account = try await client.createAccount(Fixtures.account(key: 10013))
        let execution = ExecutionRef(account)
        let id = try account.credential(.ID)
        let chip = try PassiveAuthenticationTests.chipPart(Fixtures.validMRZ, issuer: issuer)
        let dg2 = try #require(try JSONDecoder().decode(ChipData.self, from: chip).dataGroups["DG2"])
        faces.label(Data(try #require(try DataGroup2([UInt8](dg2)).faces.first).imageData), as: "anna")
        _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
        _ = try await client.uploadPart(PartUpload(
            execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(passes ? Fixtures.validMRZ : Fixtures.expiredMRZ)))
        _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .nfc, body: chip))
        try await uploadFace(anna, credential: try account.credential(.FACEMAP).id, execution: execution, client: client)
        _ = try await client.finalize(execution)
        let details = try await client.retrieve(execution)
        #expect(details.decision.type == (passes ? .PASSED : .REJECTED), "\(details.capabilities.all.filter { $0.decision != .PASSED })")
        return account.workflowExecution.id
    }

    static func authentication(enrollment: String) -> AccountRequest {
        AccountRequest(
            customerInternalReference: "kiosk-test/auth", workflowDefinition: WorkflowDefinition(key: WorkflowDefinition.authenticationKey),
            enrollmentTransactionReference: enrollment)
    }

    /// An Authentication with `face`; the details it ends with.
    static func authenticate(_ request: AccountRequest, face: Data, client: some VerificationBackend) async throws -> WorkflowExecutionDetails {
        let account = try await client.createAccount(request)
        // The face and nothing else, whatever the filters asked.
        #expect(account.workflowExecution.credentials.map(\.category) == [.FACEMAP])
        let execution = ExecutionRef(account)
        try await uploadFace(face, credential: try account.credential(.FACEMAP).id, execution: execution, client: client)
        _ = try await client.finalize(execution)
        return try await client.retrieve(execution)
    }

    static func withBackend<T: Sendable>(
        _ storage: TestStorage, faces: LabelledFaces, _ body: (LoopbackBackend, TestIssuer) async throws -> T
    ) async throws -> T {
        let issuer = try TestIssuer(signerValidity: validity)
        return try await LoopbackBackend.with(storage: storage, configure: { configuration in
            configuration.passiveAuthentication = TrustStoreVerifier(trustStore: TrustStore(certificates: [issuer.cscaCertificate]))
            configuration.faces = faces
        }) { backend in try await body(backend, issuer) }
    }

    @Test func theEnrolledPersonPassesAndAnotherPersonIsRejected() async throws { try await Self.enrolledAndAnother(.sqlite) }

    static func enrolledAndAnother(_ storage: TestStorage) async throws {
        let faces = LabelledFaces()
        faces.label(anna, as: "anna")
        faces.label(ben, as: "ben")
        try await withBackend(storage, faces: faces) { backend, issuer in
            let enrollment = try await enroll(backend, faces: faces, issuer: issuer)
            let client = backend.client()
            let same = try await authenticate(authentication(enrollment: enrollment), face: anna, client: client)
            #expect(same.workflow.definitionKey == WorkflowDefinition.authenticationKey)
            #expect(same.decision.type == .PASSED)
            #expect(same.capabilities.similarity.map(\.decision) == [.PASSED])
            #expect(same.capabilities.liveness.map(\.decision) == [.PASSED])
            #expect(same.faceResult?.passed == true)
            #expect(same.idResult == nil)
            let other = try await authenticate(authentication(enrollment: enrollment), face: ben, client: client)
            #expect(other.decision.type == .REJECTED)
            #expect(other.capabilities.similarity.map(\.reason) == ["NO_MATCH"])
            #expect(other.faceResult?.passed == false)
        }
    }

    /// An Authentication is yes or no: a similarity in the staff review band is no; without
    /// the face models nothing is decided (NOT_EXECUTED, which the station shows as M).
    @Test(arguments: [
        (LabelledFaces.Mode.review, "REVIEW", Decision.REJECTED, Bool?.some(false)), (.modelsMissing, "NO_FACE_MODELS", .NOT_EXECUTED, nil),
    ])
    func notAClearMatchIsNoAuthentication(mode: LabelledFaces.Mode, reason: String, decision: Decision, passed: Bool?) async throws {
        let faces = LabelledFaces()
        faces.label(Self.anna, as: "anna")
        try await Self.withBackend(.sqlite, faces: faces) { backend, issuer in
            let enrollment = try await Self.enroll(backend, faces: faces, issuer: issuer)
            faces.mode = mode
            let details = try await Self.authenticate(Self.authentication(enrollment: enrollment), face: Self.anna, client: backend.client())
            #expect(details.capabilities.similarity.map(\.reason) == [reason])
            #expect(details.decision.type == decision)
            #expect(details.faceResult?.passed == passed)
        }
    }

    @Test func referencesThatCannotBeUsedAreRefusedWithL() async throws { try await Self.unusableReferences(.sqlite) }

    static func unusableReferences(_ storage: TestStorage) async throws {
        let faces = LabelledFaces()
        faces.label(anna, as: "anna")
        try await withBackend(storage, faces: faces) { backend, issuer in
            let client = backend.client()
            func refused(_ request: AccountRequest, _ why: Comment) async {
                let error = await #expect(throws: BackendError.self, why) { try await client.createAccount(request) }
                #expect(error?.kind == .referenceInvalid, why)
                #expect(error?.httpStatus == 422, why)
            }
            await refused(authentication(enrollment: "9b2e61d4-0000-4000-8000-000000000000"), "no such verification")
            // A verification not finished yet.
            let open = try await client.createAccount(Fixtures.account(key: 10013))
            await refused(authentication(enrollment: open.workflowExecution.id), "not finished")
            // A verification that did not pass.
            let failed = try await enroll(backend, faces: faces, issuer: issuer, passes: false)
            await refused(authentication(enrollment: failed), "rejected")
            // A verification with no face: ID only, no chip portrait.
            let idOnly = try await client.createAccount(Fixtures.account(key: 10011))
            let idCredential = try idOnly.credential(.ID)
            _ = try await client.uploadPart(PartUpload(
                execution: ExecutionRef(idOnly), credentialId: idCredential.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            _ = try await client.uploadPart(PartUpload(
                execution: ExecutionRef(idOnly), credentialId: idCredential.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
            _ = try await client.finalize(ExecutionRef(idOnly))
            #expect(try await client.retrieve(ExecutionRef(idOnly)).decision.type == .PASSED)
            await refused(authentication(enrollment: idOnly.workflowExecution.id), "no face")
            // Another station's verification is not this station's to use.
            let enrollment = try await enroll(backend, faces: faces, issuer: issuer)
            let other = try await backend.store.addClient(name: "station-2")
            let otherClient = backend.client(id: other.id, secret: other.secret)
            let error = await #expect(throws: BackendError.self) { try await otherClient.createAccount(authentication(enrollment: enrollment)) }
            #expect(error?.kind == .referenceInvalid)
            // An Authentication is no enrollment.
            let first = try await authenticate(authentication(enrollment: enrollment), face: anna, client: client)
            #expect(first.decision.type == .PASSED)
            // An Authentication without any reference.
            var bare = authentication(enrollment: enrollment)
            bare.enrollmentTransactionReference = nil
            await refused(bare, "no reference")
            // The station sees L.
            #expect(BackendError(.referenceInvalid, call: .createAccount, httpStatus: 422, message: "").kind == .referenceInvalid)
            // An enrollment reference on a verification is a malformed request, not L.
            var misplaced = Fixtures.account(key: 10013)
            misplaced.enrollmentTransactionReference = enrollment
            let wrong = await #expect(throws: BackendError.self) { try await client.createAccount(misplaced) }
            #expect(wrong?.kind == .rejected)
        }
    }

    /// The integrator's server created the Authentication (with the enrollment); the station
    /// takes it by its reference with a new session token, once.
    @Test func anAuthenticationCreatedByTheServerIsTakenByTheStation() async throws { try await Self.serverCreated(.sqlite) }

    static func serverCreated(_ storage: TestStorage) async throws {
        let faces = LabelledFaces()
        faces.label(anna, as: "anna")
        try await withBackend(storage, faces: faces) { backend, issuer in
            let enrollment = try await enroll(backend, faces: faces, issuer: issuer)
            let client = backend.client()
            let created = try await client.createAccount(authentication(enrollment: enrollment))
            let taking = AccountRequest(
                customerInternalReference: "kiosk-test/auth", workflowDefinition: WorkflowDefinition(key: WorkflowDefinition.authenticationKey),
                authenticationTransactionReference: created.workflowExecution.id)
            let taken = try await client.createAccount(taking)
            #expect(taken.workflowExecution.id == created.workflowExecution.id)
            #expect(taken.account.id == created.account.id)
            #expect(taken.sdk.token != created.sdk.token)
            #expect(taken.workflowExecution.credentials.map(\.id) == created.workflowExecution.credentials.map(\.id))
            // The first token no longer opens the session.
            let credential = try taken.credential(.FACEMAP).id
            let stale = await #expect(throws: BackendError.self) {
                try await client.uploadPart(PartUpload(execution: ExecutionRef(created), credentialId: credential, classifier: .face, body: anna))
            }
            #expect(stale?.kind == .forbidden || stale?.kind == .credentials || stale?.kind == .rejected, "\(String(describing: stale))")
            try await uploadFace(anna, credential: credential, execution: ExecutionRef(taken), client: client)
            _ = try await client.finalize(ExecutionRef(taken))
            #expect(try await client.retrieve(ExecutionRef(taken)).decision.type == .PASSED)
            // Finished: it cannot be taken again; a verification cannot be taken at all.
            let again = await #expect(throws: BackendError.self) { try await client.createAccount(taking) }
            #expect(again?.kind == .referenceInvalid)
            var notAnAuthentication = taking
            notAnAuthentication.authenticationTransactionReference = enrollment
            let wrong = await #expect(throws: BackendError.self) { try await client.createAccount(notAnAuthentication) }
            #expect(wrong?.kind == .referenceInvalid)
        }
    }
}

/// The same on PostgreSQL.
@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, Comment(rawValue: PostgresTestEnvironment.skipReason)))
struct PostgresAuthenticationIntegrationTests {
    @Test func theEnrolledPersonPassesAndAnotherPersonIsRejected() async throws { try await AuthenticationTests.enrolledAndAnother(.postgres) }
    @Test func referencesThatCannotBeUsedAreRefusedWithL() async throws { try await AuthenticationTests.unusableReferences(.postgres) }
    @Test func anAuthenticationCreatedByTheServerIsTakenByTheStation() async throws { try await AuthenticationTests.serverCreated(.postgres) }
}
