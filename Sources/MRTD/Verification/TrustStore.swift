import Foundation

/// The CSCA certificates (and CRLs) Passive Authentication trusts.
///
/// Built from DER certificates, or from a directory of PEM and DER files such as a
/// country's published CSCA certificates. ICAO master lists (CMS) are not read yet.
public struct TrustStore: Sendable {
    /// Trusted certificates, DER.
    public var certificates: [[UInt8]]
    /// Certificate revocation lists, DER.
    public var revocationLists: [[UInt8]]

    public init(certificates: [[UInt8]] = [], revocationLists: [[UInt8]] = []) {
        self.certificates = certificates
        self.revocationLists = revocationLists
    }

    /// Why a trust store directory could not be loaded.
    public struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "trust store \(path): \(reason)" }
    }

    /// Loads every `.pem`, `.crt`, `.cer`, `.der` (certificates), `.crl` and `.ml` (ICAO CSCA
    /// master list) file of `directory`. PEM files may hold several certificates; DER files
    /// hold one; a master list adds its certificates once its signature and signer verify.
    /// - Throws: ``LoadError`` when the directory or a file cannot be read or decoded.
    public init(directory: String) throws(LoadError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw LoadError(path: directory, reason: "cannot list the directory")
        }
        var certificates: [[UInt8]] = []
        var crls: [[UInt8]] = []
        for name in names {
            let lower = name.lowercased()
            let isCRL = lower.hasSuffix(".crl")
            let isMasterList = lower.hasSuffix(".ml")
            guard isCRL || isMasterList || [".pem", ".crt", ".cer", ".der"].contains(where: { lower.hasSuffix($0) }) else { continue }
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { throw LoadError(path: path, reason: "cannot read the file") }
            let bytes = [UInt8](data)
            if isMasterList {
                let list: CSCAMasterList
                do {
                    list = try CSCAMasterList(bytes)
                } catch {
                    throw LoadError(path: path, reason: error.description)
                }
                if let failed = list.verify().first(where: { $0.outcome != .passed }) {
                    throw LoadError(path: path, reason: "the master list does not verify: \(failed)")
                }
                certificates += list.certificates
                continue
            }
            let objects = Self.pemBlocks(bytes) ?? [bytes]
            guard !objects.isEmpty else { throw LoadError(path: path, reason: "no certificate in the PEM file") }
            for object in objects {
                guard (try? TLV.parse(object))?.tag == 0x30 else { throw LoadError(path: path, reason: "not a DER or PEM certificate") }
                if isCRL { crls.append(object) } else { certificates.append(object) }
            }
        }
        self.certificates = certificates
        self.revocationLists = crls
    }

    /// The DER of every `-----BEGIN …-----` block, or `nil` when the bytes are not PEM text.
    static func pemBlocks(_ bytes: [UInt8]) -> [[UInt8]]? {
        guard let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") else { return nil }
        var blocks: [[UInt8]] = []
        var body: String?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("-----BEGIN") {
                body = ""
            } else if line.hasPrefix("-----END") {
                if let body, let data = Data(base64Encoded: body) { blocks.append([UInt8](data)) }
                body = nil
            } else if let current = body {
                body = current + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return blocks
    }
}
