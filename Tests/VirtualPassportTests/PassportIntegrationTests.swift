import APDU
import KioskTestKit
import Logging
import MRTD
import SmartCard
import Testing
import VirtualCard
import VirtualPassport

/// The chip reader through the real stack: ChipReader -> CardConnection -> libpcsclite ->
/// pcscd -> vpcd -> VirtualCard serving the virtual passport, on the second vpcd slot
/// (port 35964) so the PC/SC layer's own tests on the first slot do not collide.
@Suite(.serialized, .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)))
struct PassportIntegrationTests {
    let logger = Logger(label: "test.passport")
    let reader = PCSCTestEnvironment.secondSlotReader
    static let port: UInt16 = 35964
    static let now: Int64 = 1_790_000_000
    static let year: Int64 = 365 * 86_400

    struct Document {
        let dataSet: PassportDataSet
        let issuer: TestIssuer
        var trustStore: TrustStore { TrustStore(certificates: [issuer.cscaCertificate]) }
    }

    static func document(faceSize: Int = 20_000) throws -> Document {
        let issuer = try TestIssuer(signerValidity: (now - year)...(now + year))
        let dataSet = try PassportDataSet.make(faceSize: faceSize, signSecurityObject: { try issuer.securityObject($0) })
        return Document(dataSet: dataSet, issuer: issuer)
    }

    @Test func readsDG1DG2AndSODAndPassesPassiveAuthentication() async throws {
        let document = try Self.document()
        let passport = VirtualPassport(key: try document.dataSet.key(), files: document.dataSet.files)
        let card = PCSCTestEnvironment.card(passport, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        #expect(connection.supportsExtendedLength == true)
        let contents = try await ChipReader(transport: connection, key: try document.dataSet.key()).read()
        #expect(contents.files == document.dataSet.files)
        #expect(try contents.dataGroup1()?.mrz.documentNumber == "L898902C3")
        #expect(try contents.dataGroup2()?.faces.first?.imageData.count == 20_000)
        #expect(contents.statistics.finalReadLength == 65536)
        let result = PassiveAuthentication.verify(files: contents.files, trustStore: document.trustStore, at: Self.now)
        #expect(result.outcome == .passed, "\(result)")
        await connection.disconnect()
    }

    @Test func paceWhenEFCardAccessOffersIt() async throws {
        let document = try Self.document(faceSize: 8000)
        let passport = VirtualPassport(
            key: try document.dataSet.key(), files: document.dataSet.files, cardAccess: PassportDataSet.paceCardAccess())
        let card = PCSCTestEnvironment.card(passport, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let contents = try await ChipReader(transport: connection, key: try document.dataSet.key()).read()
        #expect(contents.accessControl == .pace)
        #expect(contents.files == document.dataSet.files)
        #expect(PassiveAuthentication.verify(files: contents.files, trustStore: document.trustStore, at: Self.now).outcome == .passed)
        await connection.disconnect()
    }

    /// Every new PACE mapping through the real stack: Integrated Mapping over ECDH, Generic
    /// Mapping over DH on a 2048-bit group (GENERAL AUTHENTICATE in extended length), and
    /// Integrated Mapping over DH; CAN for one of them.
    @Test(arguments: [
        ("0.4.0.127.0.7.2.2.4.4.2", 13, false), ("0.4.0.127.0.7.2.2.4.1.2", 2, false), ("0.4.0.127.0.7.2.2.4.3.2", 0, true),
    ])
    func paceMappingsThroughPCSC(protocolID: String, parameterID: Int, useCAN: Bool) async throws {
        let document = try Self.document(faceSize: 6000)
        let cardAccessNumber = try CardAccessNumber("123456")
        let passport = VirtualPassport(
            key: try document.dataSet.key(), files: document.dataSet.files,
            cardAccess: PassportDataSet.paceCardAccess(protocol: OID(stringLiteral: protocolID), parameterID: parameterID),
            cardAccessNumber: cardAccessNumber)
        let card = PCSCTestEnvironment.card(passport, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let chipReader = useCAN
            ? ChipReader(transport: connection, cardAccessNumber: cardAccessNumber)
            : ChipReader(transport: connection, key: try document.dataSet.key())
        let contents = try await chipReader.read()
        #expect(contents.accessControl == .pace)
        #expect(passport.sessionsEstablished == 1)
        #expect(contents.files == document.dataSet.files)
        #expect(PassiveAuthentication.verify(files: contents.files, trustStore: document.trustStore, at: Self.now).outcome == .passed)
        await connection.disconnect()
    }

    /// Chip and Active Authentication through pcscd; the chip key's curve named, or given as
    /// explicit ECParameters as many issuing states encode DG14 (interoperability fault 2, #13).
    @Test(arguments: [false, true])
    func chipAndActiveAuthenticationThroughPCSC(explicitCurve: Bool) async throws {
        let issuer = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let chipKey = explicitCurve
            ? try ChipAuthentication.chipKeyWithExplicitParameters(parameterID: 13)
            : try ChipAuthentication.chipKey(parameterID: 13, curve: "1.3.36.3.3.2.8.1.1.7")
        let activeKey = try TestIssuer.activeAuthenticationKey(.rsa2048)
        let dg14 = LDSEncoder.dataGroup14(securityInfos: [
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1)),
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), chipKey.subjectPublicKeyInfo),
        ])
        let dataSet = try PassportDataSet.make(
            faceSize: 15_000, dataGroup14: dg14, dataGroup15: LDSEncoder.dataGroup15(subjectPublicKeyInfo: activeKey.publicKey),
            signSecurityObject: { try issuer.securityObject($0) })
        let passport = VirtualPassport(
            key: try dataSet.key(), files: dataSet.files, cardAccess: PassportDataSet.paceCardAccess(),
            activeAuthenticationKey: activeKey.privateKey,
            chipAuthenticationKey: .init(privateKey: chipKey.privateKey, parameterID: 13, cipher: .aes128))
        let card = PCSCTestEnvironment.card(passport, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let contents = try await ChipReader(transport: connection, key: try dataSet.key()).read()
        #expect(contents.accessControl == .pace)
        #expect(contents.chipAuthentication?.outcome == .passed)
        #expect(contents.activeAuthentication?.outcome == .passed)
        #expect(contents.files == dataSet.files)
        let result = PassiveAuthentication.verify(files: contents.files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Self.now)
        #expect(result.outcome == .passed)
        #expect(result.dataGroupHashes.keys.sorted() == [1, 2, 14, 15])
        await connection.disconnect()
    }

    @Test func tamperedDataGroupAndUnknownCSCAFailPassiveAuthentication() async throws {
        let document = try Self.document(faceSize: 4000)
        var files = document.dataSet.files
        files[.dg1] = LDSEncoder.dataGroup1(mrz: PassportDataSet.specimenMRZ.replacing("ERIKSSON", with: "ERIKSSEN"))
        let passport = VirtualPassport(key: try document.dataSet.key(), files: files)
        let card = PCSCTestEnvironment.card(passport, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let contents = try await ChipReader(transport: connection, key: try document.dataSet.key()).read()
        let tampered = PassiveAuthentication.verify(files: contents.files, trustStore: document.trustStore, at: Self.now)
        #expect(tampered.dataGroupHashes[1]?.outcome == .failed)
        #expect(tampered.dataGroupHashes[2]?.outcome == .passed)
        #expect(tampered.outcome == .failed)

        let stranger = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let unknown = PassiveAuthentication.verify(
            files: contents.files, trustStore: TrustStore(certificates: [stranger.cscaCertificate]), at: Self.now)
        #expect(unknown.chain.outcome == .failed)
        #expect(unknown.outcome == .failed)
        await connection.disconnect()
    }

    @Test func shortLengthChipThatRefusesLongReadsFallsBack() async throws {
        let document = try Self.document(faceSize: 6000)
        var quirks = PassportQuirks()
        quirks.extendedLength = false
        quirks.wrongLengthAbove = 128
        quirks.wrongLengthIsPlain = true
        let passport = VirtualPassport(key: try document.dataSet.key(), files: document.dataSet.files, quirks: quirks)
        let card = PCSCTestEnvironment.card(passport, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        #expect(connection.supportsExtendedLength == false)
        let contents = try await ChipReader(transport: connection, key: try document.dataSet.key()).read()
        #expect(contents.files == document.dataSet.files)
        #expect(contents.statistics.finalReadLength == 128)
        #expect(contents.statistics.sessionRestarts == 2)  // 223 and 160 refused in plain
        await connection.disconnect()
    }

    @Test func cardPulledMidDG2AndPutBackResumes() async throws {
        let document = try Self.document()
        var quirks = PassportQuirks()
        quirks.maxReadLength = 2000
        let passport = VirtualPassport(key: try document.dataSet.key(), files: document.dataSet.files, quirks: quirks)
        let card = PCSCTestEnvironment.card(passport, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        // Same command sequence as the in-memory test: the 25th command is inside DG2.
        var faults = CardFaults()
        faults.vanishAfterCommands = card.commandsAnswered + 24
        card.faults = faults
        let log = ProgressLog()
        let reader = ChipReader(
            transport: connection, key: try document.dataSet.key(),
            reconnect: { [self] in
                // The holder lifts the passport and puts it back.
                card.remove()
                card.faults = CardFaults()
                try await insert(card)
                try await waitForCard()
                // The old handle holds the reader: reconnect it rather than open a second one.
                try await connection.reconnect()
                return connection
            },
            progress: { log.record($0) })
        let contents = try await reader.read()
        #expect(contents.files == document.dataSet.files)
        #expect(contents.statistics.reconnects == 1)
        #expect(passport.sessionsEstablished == 2)
        let dg2 = log.all.filter { $0.file == .dg2 }.map(\.fileBytesRead)
        #expect(dg2 == dg2.sorted() && Set(dg2).count == dg2.count)
        #expect(dg2.contains(8 + 6 * 2000) && dg2.last == document.dataSet.files[.dg2]?.count)
        let result = PassiveAuthentication.verify(files: contents.files, trustStore: document.trustStore, at: Self.now)
        #expect(result.outcome == .passed)
    }

    // MARK: helpers

    func insert(_ card: VirtualCard) async throws {
        try await waitForCard(present: false)
        try card.insert()
    }

    func connectWhenPresent() async throws -> CardConnection {
        try await waitForCard()
        return try await PCSCContext(logger: logger).connect(reader: reader)
    }

    func waitForCard(present: Bool = true) async throws {
        let context = try PCSCContext(logger: logger)
        for _ in 0..<100 {
            if try context.state(of: reader).cardPresent == present { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("card present=\(present) never reported on \(reader)")
    }
}
