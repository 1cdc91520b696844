import APDU
@testable import MRTD
import Testing
import VirtualPassport

/// EF.SOD parsing: a SignedData built to RFC 5652 with the Doc 9303 Part 10 content, in
/// DER and in BER with indefinite lengths and a segmented OCTET STRING.
@Suite struct SecurityObjectTests {
    static let hashes: [Int: [UInt8]] = [1: [UInt8](repeating: 0x11, count: 32), 2: [UInt8](repeating: 0x22, count: 32)]
    static let certificate = DER.sequence(DER.sequence(DER.integer(2)), DER.algorithm("1.2.840.10045.4.3.2"), DER.tlv(0x03, [0, 1, 2]))
    static let signature: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]

    static func attributes(digest: [UInt8]) -> [[UInt8]] {
        [
            DER.sequence(DER.oid(.contentType), DER.set(DER.oid(.ldsSecurityObject))),
            DER.sequence(DER.oid(.messageDigest), DER.set(DER.octetString(digest))),
        ]
    }

    static func sod(indefinite: Bool) -> [UInt8] {
        let content = LDSEncoder.securityObject(hashAlgorithm: .sha256, hashes: hashes)
        let digest = [UInt8](repeating: 0xAB, count: 32)
        let signerInfo = DER.sequence(
            DER.integer(1),
            DER.sequence(DER.sequence(DER.set(DER.sequence(DER.oid("2.5.4.3"), DER.printableString("DS")))), DER.integer(7)),
            DER.algorithm(.sha256),
            DER.tlv(0xA0, attributes(digest: digest).flatMap { $0 }),
            DER.algorithm("1.2.840.10045.4.3.2"),
            DER.octetString(signature))
        func constructed(_ tag: UInt8, _ parts: [UInt8]...) -> [UInt8] {
            let body = parts.flatMap { $0 }
            return indefinite ? [tag, 0x80] + body + [0, 0] : DER.tlv(UInt32(tag), body)
        }
        // BER allows the content OCTET STRING in segments.
        let eContent = indefinite
            ? [0x24, 0x80] + DER.octetString(Array(content.prefix(10))) + DER.octetString(Array(content.dropFirst(10))) + [0, 0]
            : DER.octetString(content)
        let signedData = constructed(0x30,
            DER.integer(3),
            DER.set(DER.algorithm(.sha256)),
            constructed(0x30, DER.oid(.ldsSecurityObject), constructed(0xA0, eContent)),
            constructed(0xA0, certificate),
            DER.set(signerInfo))
        return constructed(0x77, constructed(0x30, DER.oid(.signedData), constructed(0xA0, signedData)))
    }

    @Test(arguments: [false, true]) func parsesSignedData(indefinite: Bool) throws {
        let sod = try SecurityObject(Self.sod(indefinite: indefinite))
        #expect(sod.dataGroupHashes == Self.hashes)
        #expect(HashAlgorithm(oid: sod.hashAlgorithm.oid) == .sha256)
        #expect(sod.encapsulatedContent == LDSEncoder.securityObject(hashAlgorithm: .sha256, hashes: Self.hashes))
        #expect(sod.certificates == [Self.certificate])
        #expect(sod.signer.signature == Self.signature)
        #expect(sod.signer.signatureAlgorithm.oid == "1.2.840.10045.4.3.2")
        #expect(sod.signer.messageDigest == [UInt8](repeating: 0xAB, count: 32))
        #expect(sod.signer.contentType == .ldsSecurityObject)
        // What is signed is the attributes as a DER SET.
        #expect(sod.signer.signedAttributes == DER.tlv(0x31, Self.attributes(digest: [UInt8](repeating: 0xAB, count: 32)).flatMap { $0 }))
        #expect(sod.description.contains("data groups: 1 2"))
    }

    @Test func everyTruncationIsATypedErrorWithinTheFile() {
        let bytes = Self.sod(indefinite: false)
        for length in 0..<bytes.count {
            do {
                _ = try SecurityObject(Array(bytes.prefix(length)))
                Issue.record("accepted \(length) of \(bytes.count) bytes")
            } catch {
                #expect((0...length).contains(error.offset), "offset \(error.offset) outside \(length) bytes")
            }
        }
    }

    @Test func wrongContentTypeIsNamed() throws {
        var bytes = Self.sod(indefinite: false)
        // Turn the eContentType 2.23.136.1.1.1 into 2.23.136.1.1.2.
        let oid = DER.oid(.ldsSecurityObject)
        let index = try #require((0..<bytes.count).first { Array(bytes[$0..<min(bytes.count, $0 + oid.count)]) == oid })
        bytes[index + oid.count - 1] = 0x02
        let error = try #require(#expect(throws: LDSError.self) { try SecurityObject(bytes) })
        #expect(error.offset == index)
        #expect(error.reason.contains("2.23.136.1.1.2"))
    }
}
