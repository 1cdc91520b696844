import Foundation
@testable import MRTD
import Testing
import VirtualPassport

/// ICAO CSCA master lists: signed at test time with OpenSSL's CMS_sign, parsed, verified
/// and loaded into a trust store.
@Suite struct MasterListTests {
    static let now = PassiveAuthenticationTests.now
    static let year = PassiveAuthenticationTests.year

    static func masterList(signedBy signer: TestIssuer, listing cscas: [[UInt8]]) throws -> [UInt8] {
        let content = DER.sequence(DER.integer(0), DER.tlv(0x31, cscas.flatMap { $0 }))
        return try signer.signedContent(content, contentType: CSCAMasterList.contentType)
    }

    @Test func parsesAndVerifiesAList() throws {
        let utopia = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let other = try TestIssuer(country: "XX", signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let list = try CSCAMasterList(Self.masterList(signedBy: utopia, listing: [utopia.cscaCertificate, other.cscaCertificate]))
        #expect(list.certificates == [utopia.cscaCertificate, other.cscaCertificate])
        #expect(list.signerCertificates == [utopia.signerCertificate])
        #expect(list.verify().allSatisfy { $0.outcome == .passed }, "\(list.verify())")
    }

    @Test func listWhoseSignerIsNotFromAListedCSCAFailsTheChain() throws {
        let utopia = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let other = try TestIssuer(country: "XX", signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let list = try CSCAMasterList(Self.masterList(signedBy: utopia, listing: [other.cscaCertificate]))
        #expect(list.verify().last?.outcome == .failed)
    }

    @Test func alteredListFailsItsDigest() throws {
        let utopia = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        var bytes = try Self.masterList(signedBy: utopia, listing: [utopia.cscaCertificate])
        // Flip a byte inside the listed certificate (inside the signed content).
        let certificate = utopia.cscaCertificate
        let start = try #require((0...(bytes.count - certificate.count)).first { Array(bytes[$0..<($0 + certificate.count)]) == certificate })
        bytes[start + certificate.count - 5] ^= 0x01
        let list = try CSCAMasterList(bytes)
        #expect(list.verify().first?.outcome == .failed)
    }

    @Test func trustStoreDirectoryTakesMasterLists() throws {
        let utopia = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-ml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.masterList(signedBy: utopia, listing: [utopia.cscaCertificate])).write(to: directory.appendingPathComponent("icao.ml"))
        let store = try TrustStore(directory: directory.path)
        #expect(store.certificates == [utopia.cscaCertificate])

        let dataSet = try PassportDataSet.make(faceSize: 1000, signSecurityObject: { try utopia.securityObject($0) })
        #expect(PassiveAuthentication.verify(files: dataSet.files, trustStore: store, at: Self.now).outcome == .passed)

        try Data([0x30, 0x03, 0x02, 0x01, 0x00]).write(to: directory.appendingPathComponent("broken.ml"))
        let error = #expect(throws: TrustStore.LoadError.self) { try TrustStore(directory: directory.path) }
        #expect(error?.path.hasSuffix("broken.ml") == true)
    }
}
