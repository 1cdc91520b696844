package import MRTD

extension ActiveAuthentication {
    /// The chip's answer to INTERNAL AUTHENTICATE, for the virtual passport: ISO/IEC 9796-2
    /// with SHA-1 for RSA keys, plain ECDSA with SHA-256 for EC keys. `nil` when signing fails.
    package static func chipSignature(privateKey: [UInt8], challenge: [UInt8]) -> [UInt8]? {
        let key = LibCrypto.AnyKey.privateKey(privateKey)
        guard case .success(let info) = LibCrypto.keyInfo(key) else { return nil }
        if info.isRSA {
            let size = (info.bits + 7) / 8
            let recoverable = (0..<(size - 2 - HashAlgorithm.sha1.length)).map { _ in UInt8.random(in: 0...255) }
            guard let digest = try? HashAlgorithm.sha1.hash(recoverable + challenge) else { return nil }
            return try? LibCrypto.rsaRaw(key, input: [0x6A] + recoverable + digest + [0xBC]).get()
        }
        guard let der = try? LibCrypto.sign(privateKey: privateKey, digest: .sha256, scheme: .keyDefault, data: challenge).get() else { return nil }
        return ECDSASignature.plain(der: der, size: (info.bits + 7) / 8)
    }
}
