import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// Every endpoint needs a valid token, and a station sees only its own accounts.
@Suite struct AuthorizationTests {
    @Test func wrongSecretIsC() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client(secret: "not-the-secret")
            let error = await #expect(throws: BackendError.self) { try await client.createAccount(Fixtures.account()) }
            #expect(error?.code == "credentials.token.401")
            #expect(error?.isRetryable == false)
            let unknown = backend.client(id: "no-such-client")
            let other = await #expect(throws: BackendError.self) { try await unknown.createAccount(Fixtures.account()) }
            #expect(other?.kind == .credentials)
        }
    }

    @Test func anotherStationsAccountIsNotFound() async throws { try await Self.anotherStationsAccount(.sqlite) }

    static func anotherStationsAccount(_ storage: TestStorage) async throws {
        try await LoopbackBackend.with(storage: storage) { backend in
            let owner = backend.client()
            let account = try await owner.createAccount(Fixtures.account())
            let id = try account.credential(.ID)
            let second = try await backend.store.addClient(name: "station-2")
            let intruder = backend.client(id: second.id, secret: second.secret)
            let execution = ExecutionRef(account)

            let status = await #expect(throws: BackendError.self) { try await intruder.status(execution) }
            #expect(status?.code == "forbidden.status.404")
            let details = await #expect(throws: BackendError.self) { try await intruder.retrieve(execution) }
            #expect(details?.kind == .forbidden)
            // Even with the session token, the part is refused and not stored.
            let upload = await #expect(throws: BackendError.self) {
                try await intruder.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            }
            #expect(upload?.kind == .forbidden)
            let update = await #expect(throws: BackendError.self) { try await intruder.updateAccount(id: account.account.id, Fixtures.account()) }
            #expect(update?.kind == .forbidden)
            let finalize = await #expect(throws: BackendError.self) { try await intruder.finalize(execution) }
            #expect(finalize?.kind == .forbidden)
            #expect(try await owner.status(execution).workflowExecution.status == .INITIATED)
        }
    }

    @Test func everyEndpointRefusesMissingOrExpiredTokens() async throws {
        try await LoopbackBackend.with(configure: { $0.accessTokenLifetime = 60 }) { backend in
            let account = try await backend.client().createAccount(Fixtures.account())
            let base = "/api/v1/accounts/\(account.account.id)/workflow-executions/\(account.workflowExecution.id)"
            let routes: [(HTTPMethod, String)] = [
                (.POST, "/api/v1/accounts"), (.PUT, "/api/v1/accounts/\(account.account.id)"),
                (.POST, "\(base)/credentials/\(account.workflowExecution.credentials[0].id)/parts/FRONT"),
                (.PUT, base), (.GET, base), (.GET, "\(base)/status"),
            ]
            let token = try await backend.token()
            backend.time.advance(seconds: 61)
            for (method, path) in routes {
                let missing = try await backend.raw(method, path)
                #expect(missing.status == 401, "\(method) \(path)")
                let expired = try await backend.raw(method, path, headers: [("Authorization", "Bearer \(token)")])
                #expect(expired.status == 401, "\(method) \(path)")
                #expect(expired.headers.first(name: "WWW-Authenticate")?.contains("invalid_token") == true)
                let error = try JSONDecoder().decode(APIErrorBody.self, from: expired.body)
                #expect(error.code == .INVALID_TOKEN)
            }
        }
    }

    @Test func wrongSessionTokenIsRefused() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            var execution = ExecutionRef(account)
            execution.sessionToken = "forged"
            let error = await #expect(throws: BackendError.self) { try await client.finalize(execution) }
            #expect(error?.httpStatus == 403)
            #expect(try await client.status(ExecutionRef(account)).workflowExecution.status == .INITIATED)
        }
    }

    @Test func referencesCarryingPersonalDataAreRefusedByBothSides() async throws {
        try await LoopbackBackend.with { backend in
            var request = Fixtures.account()
            request.userReference = "anna.eriksson@example.org"
            let client = backend.client()
            let error = await #expect(throws: BackendError.self) { try await client.createAccount(request) }
            #expect(error?.kind == .rejected)
            #expect(error?.description.contains("anna") == false)
            // Nothing left the station:
            #expect(await backend.faults.requestCount(pathContains: "/api/v1/accounts") == 0)

            let token = try await backend.token()
            request.userReference = "P<UTOERIKSSON<<ANNA"
            let raw = try await backend.raw(.POST, "/api/v1/accounts", headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                                            body: try JSONEncoder().encode(request))
            #expect(raw.status == 422)
            #expect(String(decoding: raw.body, as: UTF8.self).contains("ERIKSSON") == false)
        }
    }
}
