import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// Application-layer encryption between the client and the reference backend.
@Suite struct EncryptionTests {
    @Test func sealAndOpenRoundTripAndTamperingFails() throws {
        let pair = try ApplicationLayerEncryption.generateKeyPair()
        let ale = try ApplicationLayerEncryption(EncryptionKey(keyId: "k1", publicKey: pair.publicKeyDER.base64EncodedString()))
        let body = Fixtures.jpeg(width: 1280, height: 800)
        let sealed = try ale.seal(body)
        #expect(sealed.body != body)
        #expect(sealed.body.range(of: body) == nil)
        let wrapped = try #require(sealed.headers.first { $0.0 == "X-Wrapped-Key" }.flatMap { Data(base64Encoded: $0.1) })
        #expect(try ApplicationLayerEncryption.open(body: sealed.body, wrappedKey: wrapped, privateKeyDER: pair.privateKeyDER) == body)
        // A fresh content key per upload.
        #expect(try ale.seal(body).body != sealed.body)
        var tampered = sealed.body
        tampered[tampered.count - 1] ^= 0x01
        #expect(throws: (any Error).self) {
            try ApplicationLayerEncryption.open(body: tampered, wrappedKey: wrapped, privateKeyDER: pair.privateKeyDER)
        }
        #expect(throws: BackendError.self) { try ApplicationLayerEncryption(EncryptionKey(keyId: "k", publicKey: "bm90IGEga2V5")) }
    }

    @Test func uploadsAreSealedWhenTheBackendPublishesAKeyAndRotationIsI() async throws {
        let keyring = try EncryptionKeyring()
        try await LoopbackBackend.with(configure: { $0.encryption = keyring }) { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            let id = try account.credential(.ID)
            let execution = ExecutionRef(account)
            let front = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            // The backend decoded and measured the JPEG through the seal.
            #expect(front.usability.decision == .PASSED)
            #expect(front.usability.reason == nil)
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
            #expect(await backend.faults.sealedRequestCount(pathContains: "/parts/") == 2)
            #expect(await backend.faults.requestCount(pathContains: "/encryption-key") == 1)

            try await keyring.rotate()
            let error = await #expect(throws: BackendError.self) {
                try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .back, body: Fixtures.jpeg(width: 1280, height: 800)))
            }
            #expect(error?.kind == .encryptionKeyInvalid)
            #expect(error?.isRetryable == false)

            // The next journey fetches the new key.
            let next = try await client.createAccount(Fixtures.account())
            let nextId = try next.credential(.ID)
            _ = try await client.uploadPart(PartUpload(execution: ExecutionRef(next), credentialId: nextId.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            #expect(await backend.faults.requestCount(pathContains: "/encryption-key") == 2)
            _ = try await client.finalize(execution)
            #expect(try await client.retrieve(execution).idResult?.documentNumber == "L898902C3")
        }
    }

    @Test func withoutAPublishedKeyUploadsAreNotSealed() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            let id = try account.credential(.ID)
            _ = try await client.uploadPart(PartUpload(execution: ExecutionRef(account), credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            _ = try await client.uploadPart(PartUpload(execution: ExecutionRef(account), credentialId: id.id, classifier: .back, body: Fixtures.jpeg(width: 1280, height: 800)))
            #expect(await backend.faults.sealedRequestCount(pathContains: "/parts/") == 0)
            #expect(await backend.faults.requestCount(pathContains: "/encryption-key") == 1)
        }
    }
}
