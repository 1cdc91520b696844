import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// The reference backend's Digital Identity: the offer in the account's answer, the phone's
/// hand-off page, the station's status call (through the real client), and the outcome at
/// finalize; answers checked against docs/backend-api.yaml.
@Suite struct DigitalIdentityBackendTests {
    static let request = AccountRequest(
        customerInternalReference: "kiosk-digital", workflowDefinition: WorkflowDefinition(key: 10, credentials: [
            CredentialFilter(category: .ID, countries: ["UTO"], types: [.PASSPORT], digitalIdentity: true)
        ]))

    /// The phone: opens the address, then answers with an outcome (when given); the HTTP statuses.
    static func phone(_ url: String, outcome: String?) async throws -> [Int] {
        let opened = try await HandoffPhone.open(url).status
        guard let outcome else { return [opened] }
        return [opened, try await HandoffPhone.answer(url, outcome: outcome)]
    }

    /// A new account whose ID credential accepts a Digital Identity: the client, the
    /// execution, the credential and its offer.
    static func offered(_ backend: LoopbackBackend) async throws
        -> (HTTPVerificationBackend<ContinuousClock>, ExecutionRef, CredentialResponse, DigitalIdentityOffer)
    {
        let client = backend.client()
        let account = try await client.createAccount(request)
        let credential = try #require(account.workflowExecution.credentials.first)
        return (client, ExecutionRef(account), credential, try #require(credential.digitalIdentities?.first))
    }

    @Test func theProviderVerifiesOnThePhoneAndTheFinalisationRecordsIt() async throws {
        try await LoopbackBackend.with(configure: { $0.digitalIdentityProviders = [.simulated] }) { backend in
            let (client, execution, credential, offer) = try await Self.offered(backend)
            #expect(offer.provider == "reference-eid" && offer.countries == ["UTO"])
            #expect(offer.handoffUrl.hasPrefix(backend.baseURL + "/handoff/"))
            #expect(!"\(offer)".contains(offer.handoffUrl))
            var answers: [(String, Data)] = [("CredentialResponse", try JSONEncoder().encode(credential))]

            #expect(try await client.digitalIdentity(execution, credentialId: credential.id) == DigitalIdentityStatus(status: .PENDING))
            #expect(try await Self.phone(offer.handoffUrl, outcome: nil) == [200])
            #expect(try await client.digitalIdentity(execution, credentialId: credential.id).status == .OPENED)
            // A failed attempt, then the person opens the address again: attempt 2.
            #expect(try await Self.phone(offer.handoffUrl, outcome: "fail") == [200, 200])
            let failed = try await client.digitalIdentity(execution, credentialId: credential.id)
            #expect(failed == DigitalIdentityStatus(provider: "reference-eid", status: .FAILED, attempt: 1, reason: "NOT_VERIFIED"))
            answers.append(("DigitalIdentityStatus", try JSONEncoder().encode(failed)))
            #expect(try await Self.phone(offer.handoffUrl, outcome: "verify") == [200, 200])
            let verified = try await client.digitalIdentity(execution, credentialId: credential.id)
            #expect(verified == DigitalIdentityStatus(provider: "reference-eid", status: .VERIFIED, attempt: 2))
            answers.append(("DigitalIdentityStatus", try JSONEncoder().encode(verified)))
            // Spent: the phone cannot use it again.
            #expect(try await Self.phone(offer.handoffUrl, outcome: nil) == [410])

            _ = try await client.finalize(execution)
            let details = try await client.retrieve(execution)
            #expect(details.capabilities.extraction == [CapabilityResult(id: "extraction-DIGITAL_IDENTITY", credentialId: credential.id, decision: .PASSED)])
            #expect(details.decision.type == .PASSED)

            let file = backend.directory.appendingPathComponent("answers.json")
            let list = try answers.map { ["schema": $0.0, "body": try JSONSerialization.jsonObject(with: $0.1)] }
            try JSONSerialization.data(withJSONObject: list).write(to: file)
            let result = try APISpecValidator.run(answers: file.path)
            #expect(result.status == 0, "\(result.output)")
        }
    }

    @Test func aHandoffExpiresAndUnknownOnesAreNotFound() async throws {
        try await LoopbackBackend.with(configure: { $0.digitalIdentityProviders = [.simulated] }) { backend in
            let (client, execution, credential, offer) = try await Self.offered(backend)
            backend.time.advance(seconds: 601)
            #expect(try await client.digitalIdentity(execution, credentialId: credential.id).status == .EXPIRED)
            #expect(try await Self.phone(offer.handoffUrl, outcome: nil) == [410])
            #expect(try await backend.raw(.GET, "/handoff/not-a-token").status == 404)
            do {
                _ = try await client.digitalIdentity(execution, credentialId: "00000000-0000-0000-0000-000000000000")
                Issue.record("a credential without a hand-off has no status")
            } catch let error as BackendError {
                #expect(error.kind == .forbidden && error.httpStatus == 404)
            }
        }
    }

    @Test func withoutAProviderNothingIsOffered() async throws {
        try await LoopbackBackend.with { backend in
            let account = try await backend.client().createAccount(Self.request)
            #expect(account.workflowExecution.credentials.first?.digitalIdentities == nil)
        }
    }
}
