import COpenSSL
public import Foundation
public import NIOSSL

/// Public key pinning (the seeds' "public key pinning"): a connection is used only when
/// the server's validated certificate chain holds one of the pinned keys.
///
/// A pin is the base64 SHA-256 of a certificate's DER SubjectPublicKeyInfo, the form of
/// HPKP and most pinning libraries:
/// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
/// Pin the leaf's key (survives certificate renewals that keep the key), an
/// intermediate's or the root's (survives leaf key changes), and keep a backup pin.
/// Pinning narrows the normal validation, it does not replace it: the chain must still
/// lead to one of ``trustRoots`` and name the host.
public struct SPKIPinning: Sendable, Hashable {
    /// The pinned SHA-256 digests.
    public let pins: Set<Data>
    /// The anchors of the chain validation: the system's (`.default`), a PEM file or a
    /// directory (`.file`), or certificates.
    public let trustRoots: NIOSSLTrustRoots

    /// - Throws: ``BackendError`` (F, not configured) when there is no pin or a pin is not
    ///   base64 of 32 bytes.
    public init(base64SHA256 pins: [String], trustRoots: NIOSSLTrustRoots = .default) throws(BackendError) {
        var decoded: Set<Data> = []
        for pin in pins {
            guard let digest = Data(base64Encoded: pin.trimmingCharacters(in: .whitespaces)), digest.count == 32 else {
                throw BackendError(.notConfigured, call: .token, message: "an SPKI pin is not base64 of a SHA-256 digest")
            }
            decoded.insert(digest)
        }
        guard !decoded.isEmpty else { throw BackendError(.notConfigured, call: .token, message: "SPKI pinning without a pin") }
        self.pins = decoded
        self.trustRoots = trustRoots
    }

    /// Why a presented chain was refused.
    enum Refusal: Error, Equatable {
        /// The chain does not validate to a trust root; the text is OpenSSL's.
        case untrusted(String)
        /// The chain validates but holds none of the pinned keys.
        case noPinnedKey
        /// A certificate does not decode or the trust roots cannot be read.
        case unreadable
    }

    /// Validates the chain a server presented (leaf first) and looks for a pinned key in
    /// the validated chain (which may end in a root the server did not send).
    func check(presented chain: [[UInt8]]) -> Result<Void, Refusal> {
        let anchors: [[UInt8]]
        var file: String?
        switch trustRoots {
        case .default: anchors = []
        case .file(let path): anchors = []; file = path
        case .certificates(let certificates):
            guard let der = try? certificates.map({ try $0.toDERBytes() }) else { return .failure(.unreadable) }
            anchors = der
        }
        var isDirectory: ObjCBool = false
        let directory = file.flatMap { FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue ? $0 : nil }
        switch verifyServerChain(chain, anchors: anchors, trustFile: directory == nil ? file : nil, trustDirectory: directory) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let validated):
            return validated.contains(where: pins.contains) ? .success(()) : .failure(.noPinnedKey)
        }
    }
}

/// The SPKI SHA-256 digests of the validated chain, leaf first (COpenSSL_verify_server_chain).
func verifyServerChain(
    _ chain: [[UInt8]], anchors: [[UInt8]], trustFile: String?, trustDirectory: String?
) -> Result<[Data], SPKIPinning.Refusal> {
    let maximumDepth = 16
    let chainBytes = chain.flatMap { $0 }, chainLengths = chain.map(\.count)
    let anchorBytes = anchors.flatMap { $0 }, anchorLengths = anchors.map(\.count)
    var digests = [UInt8](repeating: 0, count: 32 * maximumDepth)
    var count = 0
    var verifyError: Int32 = 0
    var reason = [CChar](repeating: 0, count: 256)
    let rc = COpenSSL_verify_server_chain(
        chainBytes, chainLengths, chain.count, anchorBytes, anchorLengths, anchors.count, trustFile, trustDirectory,
        &digests, maximumDepth, &count, &verifyError, &reason, reason.count
    )
    switch rc {
    case 1: return .success((0..<count).map { Data(digests[32 * $0 ..< 32 * ($0 + 1)]) })
    case 0: return .failure(.untrusted(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    default: return .failure(.unreadable)
    }
}
