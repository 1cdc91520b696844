import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// docs/backend-api.yaml is a valid OpenAPI 3.1 document, and the reference backend's
/// answers match its schemas. Needs the PyPI package openapi-spec-validator: without it
/// these tests FAIL and say so.
@Suite struct SpecTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let spec = root.appendingPathComponent("docs/backend-api.yaml").path

    /// Runs the validator; returns its exit status and output.
    static func validate(answers: String? = nil) throws -> (status: Int32, output: String) {
        let result = try APISpecValidator.run(answers: answers)
        if result.status == 2 {
            Issue.record("openapi-spec-validator is not installed: pip install openapi-spec-validator (\(result.output))")
        }
        return result
    }

    @Test func specIsValidOpenAPI31() throws {
        let result = try Self.validate()
        #expect(result.status == 0, "\(result.output)")
        let text = try String(contentsOfFile: Self.spec, encoding: .utf8)
        #expect(text.hasPrefix("openapi: 3.1"))
    }

    @Test func serverAnswersMatchTheSpec() async throws {
        struct Answer: Sendable {
            var schema: String
            var body: Data
        }
        let keyring = try EncryptionKeyring()
        let collectedAnswers: [Answer] = try await LoopbackBackend.with(configure: { $0.encryption = keyring }) { backend in
            var collected: [(String, Data)] = []
            let basic = Data("\(backend.station.id):\(backend.station.secret)".utf8).base64EncodedString()
            let form = [("Authorization", "Basic \(basic)"), ("Content-Type", "application/x-www-form-urlencoded")]
            let tokenAnswer = try await backend.raw(.POST, "/oauth2/token", headers: form, body: Data("grant_type=client_credentials".utf8))
            collected.append(("TokenResponse", tokenAnswer.body))
            let token = try JSONDecoder().decode(TokenResponse.self, from: tokenAnswer.body).accessToken
            let auth = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]

            let accountAnswer = try await backend.raw(.POST, "/api/v1/accounts", headers: auth, body: try JSONEncoder().encode(Fixtures.account(key: 10013, callbackURL: "http://127.0.0.1:9/cb")))
            collected.append(("AccountResponse", accountAnswer.body))
            let account = try JSONDecoder().decode(AccountResponse.self, from: accountAnswer.body)
            let base = "/api/v1/accounts/\(account.account.id)/workflow-executions/\(account.workflowExecution.id)"
            let session = ("X-Session-Token", account.sdk.token)
            let id = try account.credential(.ID), face = try account.credential(.FACEMAP)

            let uploads: [(CredentialResponse, String, String, Data)] = [
                (id, "FRONT", "image/jpeg", Fixtures.jpeg(width: 1280, height: 800)),
                (id, "MRZ", "application/json", Fixtures.mrzPart(Fixtures.validMRZ)),
                (id, "NFC", "application/json", Fixtures.chipPart(Fixtures.validMRZ)),
                (face, "FACE", "image/jpeg", Fixtures.jpeg(width: 640, height: 480)),
            ]
            for (index, (credential, classifier, type, body)) in uploads.enumerated() {
                let answer = try await backend.raw(.POST, "\(base)/credentials/\(credential.id)/parts/\(classifier)",
                                                   headers: [auth[0], ("Content-Type", type), session, ("Idempotency-Key", "spec-test-\(index)")], body: body)
                collected.append(("PartResponse", answer.body))
            }
            // A paper document's page: a DOCUMENT credential announcing PAGE_1, and its answer.
            let paperAnswer = try await backend.raw(.POST, "/api/v1/accounts", headers: auth, body: try JSONEncoder().encode(DocumentPagesTests.documentAccount()))
            collected.append(("AccountResponse", paperAnswer.body))
            let paperAccount = try JSONDecoder().decode(AccountResponse.self, from: paperAnswer.body)
            let paper = try paperAccount.credential(.DOCUMENT)
            let pageAnswer = try await backend.raw(
                .POST, "/api/v1/accounts/\(paperAccount.account.id)/workflow-executions/\(paperAccount.workflowExecution.id)/credentials/\(paper.id)/parts/PAGE_1",
                headers: [auth[0], ("Content-Type", "image/jpeg"), ("X-Session-Token", paperAccount.sdk.token), ("Idempotency-Key", "spec-test-page")],
                body: Fixtures.jpeg(width: 1470, height: 2079))
            collected.append(("PartResponse", pageAnswer.body))
            collected.append(("StatusResponse", try await backend.raw(.GET, "\(base)/status", headers: [auth[0]]).body))
            collected.append(("WorkflowExecutionDetails", try await backend.raw(.GET, base, headers: [auth[0]]).body))
            collected.append(("StatusResponse", try await backend.raw(.PUT, base, headers: [auth[0], session]).body))
            collected.append(("WorkflowExecutionDetails", try await backend.raw(.GET, base, headers: [auth[0]]).body))
            // Error answers.
            collected.append(("Error", try await backend.raw(.GET, base).body))
            collected.append(("Error", try await backend.raw(.GET, "/api/v1/accounts/x/workflow-executions/y/status", headers: [auth[0]]).body))
            collected.append(("Error", try await backend.raw(.POST, "\(base)/credentials/\(id.id)/parts/BACK",
                                                             headers: [auth[0], ("Content-Type", "image/jpeg"), session, ("Idempotency-Key", "spec-test-gone")],
                                                             body: Fixtures.jpeg(width: 1280, height: 800)).body))
            collected.append(("EncryptionKey", try await backend.raw(.GET, "/api/v1/encryption-key", headers: [auth[0]]).body))
            // The queued callback's body.
            let callback = try #require(try await backend.store.claimDueCallbacks(limit: 20, lease: .seconds(60)).first)
            collected.append(("Callback", callback.body))
            return collected.map { Answer(schema: $0.0, body: $0.1) }
        }
        let answers: [[String: Any]] = try collectedAnswers.map { ["schema": $0.schema, "body": try JSONSerialization.jsonObject(with: $0.body)] }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-answers-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: answers).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Self.validate(answers: file.path)
        #expect(result.status == 0, "\(result.output)")
        #expect(answers.count == 17)
    }
}
