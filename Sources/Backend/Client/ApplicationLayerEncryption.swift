import _CryptoExtras
import Crypto
public import Foundation

/// Application-layer encryption of uploads (the seeds' ALE): each body is sealed with a
/// fresh AES-256-GCM key, and that key is wrapped with the backend's RSA-OAEP-SHA256
/// public key. TLS protects the channel; this protects the evidence past the TLS
/// terminator.
///
/// Headers: `X-Encryption: A256GCM+RSA-OAEP-256`, `X-Encryption-Key-Id`, and
/// `X-Wrapped-Key` (base64); the body is the AES-GCM nonce, ciphertext and tag.
public struct ApplicationLayerEncryption: Sendable, Hashable {
    public static let scheme = "A256GCM+RSA-OAEP-256"

    public let keyId: String
    /// DER SubjectPublicKeyInfo; the key is parsed when used (the RSA type is not Sendable).
    let publicKeyDER: Data

    /// - Throws: ``BackendError`` (I) when the published key is not a usable RSA-OAEP key.
    public init(_ key: EncryptionKey) throws(BackendError) {
        guard key.algorithm == "RSA-OAEP-256", let der = Data(base64Encoded: key.publicKey),
              (try? _RSA.Encryption.PublicKey(derRepresentation: der)) != nil
        else {
            throw BackendError(.encryptionKeyInvalid, call: .encryptionKey, message: "published encryption key unusable")
        }
        self.keyId = key.keyId
        self.publicKeyDER = der
    }

    /// Seals `body`; returns the sealed body and the headers that go with it.
    public func seal(_ body: Data) throws(BackendError) -> (body: Data, headers: [(String, String)]) {
        do {
            let publicKey = try _RSA.Encryption.PublicKey(derRepresentation: publicKeyDER)
            let contentKey = SymmetricKey(size: .bits256)
            guard let sealed = try AES.GCM.seal(body, using: contentKey).combined else {
                throw BackendError(.encryptionKeyInvalid, call: .uploadPart, message: "cannot seal the body")
            }
            let wrapped = try contentKey.withUnsafeBytes { try publicKey.encrypt(Data($0), padding: .PKCS1_OAEP_SHA256) }
            return (sealed, [
                ("X-Encryption", Self.scheme), ("X-Encryption-Key-Id", keyId), ("X-Wrapped-Key", wrapped.base64EncodedString()),
            ])
        } catch let error as BackendError {
            throw error
        } catch {
            throw BackendError(.encryptionKeyInvalid, call: .uploadPart, message: "cannot encrypt with the published key")
        }
    }

    /// The backend's side: unwraps the content key and opens the body.
    /// - Throws: when the key or the body was tampered with or is for another key.
    public static func open(body: Data, wrappedKey: Data, privateKeyDER: Data) throws -> Data {
        let privateKey = try _RSA.Encryption.PrivateKey(derRepresentation: privateKeyDER)
        let contentKey = SymmetricKey(data: try privateKey.decrypt(wrappedKey, padding: .PKCS1_OAEP_SHA256))
        return try AES.GCM.open(AES.GCM.SealedBox(combined: body), using: contentKey)
    }

    /// A new RSA-2048 key pair for the backend: (private key DER, public SPKI DER).
    public static func generateKeyPair() throws -> (privateKeyDER: Data, publicKeyDER: Data) {
        let key = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        return (key.derRepresentation, key.publicKey.derRepresentation)
    }

    /// A PEM private key (PKCS#1 or PKCS#8) to DER, with its public SPKI DER.
    public static func keyPair(pem: String) throws -> (privateKeyDER: Data, publicKeyDER: Data) {
        let key = try _RSA.Encryption.PrivateKey(pemRepresentation: pem)
        return (key.derRepresentation, key.publicKey.derRepresentation)
    }
}
