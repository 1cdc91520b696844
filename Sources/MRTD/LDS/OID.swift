/// An ASN.1 object identifier, such as `2.23.136.1.1.1` (the LDS security object).
public struct OID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The arcs, most significant first.
    public let arcs: [UInt64]

    public init(arcs: [UInt64]) {
        self.arcs = arcs
    }

    /// From dotted text; arcs that are not numbers make an empty OID, which matches nothing.
    public init(stringLiteral text: String) {
        let parts = text.split(separator: ".").map { UInt64($0) }
        arcs = parts.contains(nil) ? [] : parts.compactMap { $0 }
    }

    /// Decodes DER contents (X.690 §8.19): base-128 subidentifiers, the first one holding
    /// the first two arcs. `nil` when a subidentifier is truncated or overflows.
    package init?(contents: [UInt8]) {
        guard !contents.isEmpty else { return nil }
        var values: [UInt64] = []
        var current: UInt64 = 0
        var inSubidentifier = false
        for byte in contents {
            guard current >> 57 == 0 else { return nil }
            if !inSubidentifier && byte == 0x80 { return nil }  // non-minimal encoding
            current = current << 7 | UInt64(byte & 0x7F)
            inSubidentifier = byte & 0x80 != 0
            if !inSubidentifier {
                values.append(current)
                current = 0
            }
        }
        guard !inSubidentifier, let first = values.first else { return nil }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        arcs = head + values.dropFirst()
    }

    /// The DER contents, the inverse of `init?(contents:)`.
    package var contents: [UInt8] {
        guard arcs.count >= 2 else { return [] }
        var out: [UInt8] = []
        for value in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var groups: [UInt8] = [UInt8(value & 0x7F)]
            var rest = value >> 7
            while rest > 0 {
                groups.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            out += groups
        }
        return out
    }

    /// Whether `prefix` is this OID or one of its ancestors.
    public func hasPrefix(_ prefix: OID) -> Bool {
        arcs.count >= prefix.arcs.count && Array(arcs.prefix(prefix.arcs.count)) == prefix.arcs
    }

    public var description: String { arcs.map(String.init).joined(separator: ".") }
}

extension OID {
    /// id-icao-mrtd-security-ldsSecurityObject (Doc 9303 Part 10 §4.6.2).
    public static let ldsSecurityObject: OID = "2.23.136.1.1.1"
    /// id-signedData (RFC 5652 §5.1).
    public static let signedData: OID = "1.2.840.113549.1.7.2"
    /// id-messageDigest signed attribute (RFC 5652 §11.2).
    public static let messageDigest: OID = "1.2.840.113549.1.9.4"
    /// id-contentType signed attribute (RFC 5652 §11.1).
    public static let contentType: OID = "1.2.840.113549.1.9.3"
    /// id-icao-mrtd-security-aaProtocolObject (Doc 9303 Part 11 §6.1): ActiveAuthenticationInfo.
    public static let activeAuthentication: OID = "2.23.136.1.1.5"
    /// id-PACE (BSI TR-03110 Part 3 §A.1.1): the prefix of every PACE protocol OID.
    public static let pace: OID = "0.4.0.127.0.7.2.2.4"
    /// id-CA: the prefix of Chip Authentication protocol OIDs.
    public static let chipAuthentication: OID = "0.4.0.127.0.7.2.2.3"
    /// id-PK: the prefix of Chip Authentication public key OIDs.
    public static let chipAuthenticationPublicKey: OID = "0.4.0.127.0.7.2.2.1"
    /// id-TA: Terminal Authentication.
    public static let terminalAuthentication: OID = "0.4.0.127.0.7.2.2.2"
    /// id-PACE domain parameter infos sit under the protocol OIDs with `.1`/`.2` (DH/ECDH)
    /// and no cipher suffix; PACEDomainParameterInfo is recognised by its structure.

    /// SHA-1 (RFC 3279).
    public static let sha1: OID = "1.3.14.3.2.26"
    /// SHA-224/256/384/512 (NIST CSOR).
    public static let sha224: OID = "2.16.840.1.101.3.4.2.4"
    public static let sha256: OID = "2.16.840.1.101.3.4.2.1"
    public static let sha384: OID = "2.16.840.1.101.3.4.2.2"
    public static let sha512: OID = "2.16.840.1.101.3.4.2.3"
}

/// A hash algorithm of the LDS security object or of a signature.
public enum HashAlgorithm: String, Hashable, Sendable {
    case sha1 = "SHA-1", sha224 = "SHA-224", sha256 = "SHA-256", sha384 = "SHA-384", sha512 = "SHA-512"

    /// The algorithm an AlgorithmIdentifier names; `nil` for one we do not know.
    public init?(oid: OID) {
        switch oid {
        case .sha1: self = .sha1
        case .sha224: self = .sha224
        case .sha256: self = .sha256
        case .sha384: self = .sha384
        case .sha512: self = .sha512
        default: return nil
        }
    }

    /// The digest length in bytes.
    public var length: Int {
        switch self {
        case .sha1: return 20
        case .sha224: return 28
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }
}

extension HashAlgorithm {
    /// The libcrypto digest for this algorithm.
    package var digest: LibCrypto.Digest {
        switch self {
        case .sha1: return .sha1
        case .sha224: return .sha224
        case .sha256: return .sha256
        case .sha384: return .sha384
        case .sha512: return .sha512
        }
    }

    /// The OID of this algorithm.
    public var oid: OID {
        switch self {
        case .sha1: return .sha1
        case .sha224: return .sha224
        case .sha256: return .sha256
        case .sha384: return .sha384
        case .sha512: return .sha512
        }
    }

    /// Hashes `data`.
    /// - Throws: ``MRTDError`` `.cryptoFailure` when libcrypto fails.
    public func hash(_ data: [UInt8]) throws(MRTDError) -> [UInt8] {
        switch LibCrypto.digest(digest, data) {
        case .success(let bytes): return bytes
        case .failure(let error): throw .crypto(error)
        }
    }
}
