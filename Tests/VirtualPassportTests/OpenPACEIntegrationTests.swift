import APDU
import KioskTestKit
import MRTD
import OpenPACEChip
import SmartCard
import Testing
import VirtualCard
import VirtualPassport

/// The reader against a chip we did not write (#13): PACE, Chip Authentication and secure
/// messaging computed by OpenPACE (Debian's libeac), served on vpcd through the real pcscd.
/// A misreading of ICAO Doc 9303 Part 11 in `MRTD` that the virtual passport repeats fails here.
extension PassportIntegrationTests {
    /// One PACE parameter set: the PACEInfo protocol and the standardized domain parameters.
    struct Offer: CustomTestStringConvertible, Sendable {
        let name: String
        let protocolID: String
        let parameterID: Int
        var testDescription: String { name }
    }

    static let mappings: [Offer] = [
        Offer(name: "ECDH-GM AES-128 brainpoolP256r1", protocolID: "0.4.0.127.0.7.2.2.4.2.2", parameterID: 13),
        Offer(name: "ECDH-GM AES-128 NIST P-256", protocolID: "0.4.0.127.0.7.2.2.4.2.2", parameterID: 12),
        Offer(name: "ECDH-GM AES-256 NIST P-521", protocolID: "0.4.0.127.0.7.2.2.4.2.4", parameterID: 18),
        Offer(name: "ECDH-GM AES-192 brainpoolP384r1", protocolID: "0.4.0.127.0.7.2.2.4.2.3", parameterID: 16),
        Offer(name: "ECDH-GM 3DES brainpoolP256r1", protocolID: "0.4.0.127.0.7.2.2.4.2.1", parameterID: 13),
        Offer(name: "DH-GM AES-128 1024-bit MODP", protocolID: "0.4.0.127.0.7.2.2.4.1.2", parameterID: 0),
        Offer(name: "DH-GM AES-128 2048-bit MODP", protocolID: "0.4.0.127.0.7.2.2.4.1.2", parameterID: 2),
    ]

    /// Integrated Mapping as ICAO Doc 9303 Part 11 specifies it (a pseudo-random function
    /// R_p(s, t), then the point encoding of its Appendix B for ECDH): the reader implements
    /// that, checked against the Part 11 worked examples (PACEMappingTests). Debian's OpenPACE
    /// (1.1.2, a 2022 snapshot) implements the earlier TR-03110 2.01 mapping (Icart's encoding
    /// of E(s, t)), which ICAO did not adopt; the two cannot agree on the generator.
    static let integratedMappings: [Offer] = [
        Offer(name: "ECDH-IM AES-128 brainpoolP256r1", protocolID: "0.4.0.127.0.7.2.2.4.4.2", parameterID: 13),
        Offer(name: "ECDH-IM AES-128 NIST P-256", protocolID: "0.4.0.127.0.7.2.2.4.4.2", parameterID: 12),
        Offer(name: "DH-IM AES-128 1024-bit MODP", protocolID: "0.4.0.127.0.7.2.2.4.3.2", parameterID: 0),
    ]

    /// A chip of OpenPACE's on the second vpcd slot, and what it holds.
    struct OpenPACEDocument {
        let document: Document
        let chip: OpenPACEPassport
    }

    static func openPACEDocument(
        offering offers: [Offer], faceSize: Int = 6000, cardAccessNumber: String? = nil, explicitCurve: Bool? = nil
    ) throws -> OpenPACEDocument {
        let issuer = try TestIssuer(signerValidity: (now - year)...(now + year))
        var dataGroup14: [UInt8]?
        var chipKey: OpenPACEPassport.ChipAuthenticationKey?
        if let explicitCurve {
            let key = explicitCurve
                ? try ChipAuthentication.chipKeyWithExplicitParameters(parameterID: 13)
                : try ChipAuthentication.chipKey(parameterID: 13, curve: "1.3.36.3.3.2.8.1.1.7")
            dataGroup14 = LDSEncoder.dataGroup14(securityInfos: [
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1)),
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), key.subjectPublicKeyInfo),
            ])
            // The public point ends the SubjectPublicKeyInfo (BIT STRING, no unused bits).
            chipKey = .init(
                protocolID: "0.4.0.127.0.7.2.2.3.2.2", parameterID: 13, privateKey: key.privateKey,
                publicKey: Array(key.subjectPublicKeyInfo.suffix(65)))
        }
        let dataSet = try PassportDataSet.make(
            faceSize: faceSize, dataGroup14: dataGroup14, signSecurityObject: { try issuer.securityObject($0) })
        let cardAccess = PassportDataSet.paceCardAccess(offering: offers.map { (OID(stringLiteral: $0.protocolID), $0.parameterID) })
        let chip = try OpenPACEPassport(
            mrz: dataSet.mrz, files: dataSet.files.map { ($0.key.fid, $0.key.sfi, $0.value) }, cardAccess: cardAccess,
            cardAccessNumber: cardAccessNumber, chipAuthenticationKey: chipKey)
        return OpenPACEDocument(document: Document(dataSet: dataSet, issuer: issuer), chip: chip)
    }

    /// Reads the OpenPACE chip through pcscd and checks what every read must show.
    func readOpenPACEChip(_ subject: OpenPACEDocument, cardAccessNumber: CardAccessNumber? = nil) async throws -> ChipContents {
        let card = PCSCTestEnvironment.card(subject.chip, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let key = try subject.document.dataSet.key()
        let reader = cardAccessNumber.map { ChipReader(transport: connection, cardAccessNumber: $0) } ?? ChipReader(transport: connection, key: key)
        let contents: ChipContents
        do {
            contents = try await reader.read()
        } catch {
            await connection.disconnect()
            throw error
        }
        await connection.disconnect()
        #expect(contents.accessControl == .pace)
        #expect(contents.paceFailure == nil)
        #expect(subject.chip.sessionsEstablished == 1)
        #expect(contents.files == subject.document.dataSet.files)
        #expect(PassiveAuthentication.verify(files: contents.files, trustStore: subject.document.trustStore, at: Self.now).outcome == .passed)
        return contents
    }

    @Test(arguments: mappings)
    func openPACEChipReadsWithEveryMapping(offer: Offer) async throws {
        let subject = try Self.openPACEDocument(offering: [offer])
        #expect(subject.chip.offeredParameterSets == 1)
        _ = try await readOpenPACEChip(subject)
    }

    /// Integrated Mapping against OpenPACE's older variant: the read fails, and the error
    /// says PACE failed and why (never a silent fallback), then that BAC is not offered.
    @Test(arguments: integratedMappings)
    func openPACEChipsIntegratedMappingIsTheOlderVariant(offer: Offer) async throws {
        let subject = try Self.openPACEDocument(offering: [offer])
        #expect(subject.chip.offeredParameterSets == 1)
        let card = PCSCTestEnvironment.card(subject.chip, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let key = try subject.document.dataSet.key()
        let error = await #expect(throws: MRTDError.self) { _ = try await ChipReader(transport: connection, key: key).read() }
        #expect(error?.message.hasPrefix("PACE failed (the chip") == true, "\(String(describing: error))")
        #expect(error?.message.contains("BAC") == true)
        #expect(subject.chip.sessionsEstablished == 0)
        await connection.disconnect()
    }

    /// Fault 1 against OpenPACE's chip: two parameter sets for one protocol, so the reader
    /// must name its choice (DO'84'); the chip refuses an MSE:Set AT without it.
    @Test func openPACEChipWithSeveralParameterSets() async throws {
        let subject = try Self.openPACEDocument(offering: [Self.mappings[1], Self.mappings[0]])
        #expect(subject.chip.offeredParameterSets == 2)
        _ = try await readOpenPACEChip(subject)
    }

    /// PACE with the card access number instead of the MRZ.
    @Test func openPACEChipWithTheCardAccessNumber() async throws {
        let subject = try Self.openPACEDocument(offering: [Self.mappings[0]], cardAccessNumber: "123456")
        _ = try await readOpenPACEChip(subject, cardAccessNumber: try CardAccessNumber("123456"))
    }

    /// Chip Authentication computed by OpenPACE after PACE, with DG14's curve named or given
    /// as explicit ECParameters (fault 2); the read continues in the new session.
    @Test(arguments: [false, true])
    func openPACEChipAuthentication(explicitCurve: Bool) async throws {
        let subject = try Self.openPACEDocument(offering: [Self.mappings[0]], faceSize: 12_000, explicitCurve: explicitCurve)
        let contents = try await readOpenPACEChip(subject)
        #expect(contents.chipAuthentication?.outcome == .passed, "\(String(describing: contents.chipAuthentication))")
    }

    /// Fault 3 against OpenPACE's secure messaging: a wrong MAC mid-read; the chip aborts the
    /// session and the reader resynchronises, authenticates again and finishes the read.
    @Test func openPACEChipWrongMACMidRead() async throws {
        let subject = try Self.openPACEDocument(offering: [Self.mappings[0]], faceSize: 20_000)
        subject.chip.corruptMAC(onCommand: 6)
        let card = PCSCTestEnvironment.card(subject.chip, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let contents = try await ChipReader(transport: connection, key: try subject.document.dataSet.key()).read()
        #expect(contents.files == subject.document.dataSet.files)
        #expect(subject.chip.sessionsEstablished == 2)
        await connection.disconnect()
    }

    /// A wrong password is refused by OpenPACE's token check, and the reader says so.
    @Test func openPACEChipRefusesAWrongKey() async throws {
        let subject = try Self.openPACEDocument(offering: [Self.mappings[0]])
        let card = PCSCTestEnvironment.card(subject.chip, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let wrong = try MRZKey(documentNumber: "X12345678", birthDate: "740812", expiryDate: "120415")
        await #expect(throws: MRTDError.self) { _ = try await ChipReader(transport: connection, key: wrong).read() }
        #expect(subject.chip.sessionsEstablished == 0)
        await connection.disconnect()
    }
}
