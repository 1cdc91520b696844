public import Backend
import Foundation

/// The reference backend's RSA key for application-layer encryption: published at
/// `GET /api/v1/encryption-key`; uploads sealed for another key id are refused with
/// `KEY_EXPIRED` (the station shows I).
public actor EncryptionKeyring {
    private var keyId: String
    private var privateKeyDER: Data
    private var publicKeyDER: Data

    /// - Parameter pem: an RSA private key (PKCS#1 or PKCS#8 PEM); nil generates one.
    public init(pem: String? = nil) throws {
        let pair = try pem.map(ApplicationLayerEncryption.keyPair(pem:)) ?? ApplicationLayerEncryption.generateKeyPair()
        self.privateKeyDER = pair.privateKeyDER
        self.publicKeyDER = pair.publicKeyDER
        self.keyId = Self.keyId(for: pair.publicKeyDER)
    }

    /// Replaces the key; uploads sealed for the old one are refused from now on.
    public func rotate() throws {
        let pair = try ApplicationLayerEncryption.generateKeyPair()
        privateKeyDER = pair.privateKeyDER
        publicKeyDER = pair.publicKeyDER
        keyId = Self.keyId(for: pair.publicKeyDER)
    }

    public func published() -> EncryptionKey {
        EncryptionKey(keyId: keyId, publicKey: publicKeyDER.base64EncodedString())
    }

    /// Opens a sealed body.
    /// - Returns: nil when the key id is not the current one.
    /// - Throws: when the wrapped key or the body does not open.
    func open(body: Data, keyId: String, wrappedKey: Data) throws -> Data? {
        guard keyId == self.keyId else { return nil }
        return try ApplicationLayerEncryption.open(body: body, wrappedKey: wrappedKey, privateKeyDER: privateKeyDER)
    }

    /// The first 16 hex digits of the SPKI's SHA-256, via the API's own key id space.
    private static func keyId(for spki: Data) -> String {
        StoreSecrets.hash(Array(spki)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
