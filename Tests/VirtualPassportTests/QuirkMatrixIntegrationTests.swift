import APDU
import KioskTestKit
import MRTD
import SmartCard
import Testing
import VirtualCard
import VirtualPassport

/// Every access control × every way a chip limits its answers × every fault (#13), read
/// through pcscd: each read ends with the bytes of a clean read.
extension PassportIntegrationTests {
    enum Access: String, CaseIterable, Sendable {
        case bac = "BAC", paceGM = "PACE-GM", paceIM = "PACE-IM", paceCAM = "PACE-CAM"

        /// The PACEInfo protocol of EF.CardAccess (brainpoolP256r1, AES-128); none for BAC.
        var paceProtocol: OID? {
            switch self {
            case .bac: nil
            case .paceGM: "0.4.0.127.0.7.2.2.4.2.2"
            case .paceIM: "0.4.0.127.0.7.2.2.4.4.2"
            case .paceCAM: "0.4.0.127.0.7.2.2.4.6.2"
            }
        }
    }

    enum Lengths: String, CaseIterable, Sendable {
        case extended = "extended length", short = "short, Le 256", capped = "Le over 128 refused with 6700", exact = "6Cxx above 200"

        var quirks: PassportQuirks {
            var quirks = PassportQuirks()
            quirks.extendedLength = self == .extended
            if self == .capped { quirks.wrongLengthAbove = 128 }
            if self == .exact { quirks.exactLengthAbove = 200 }
            return quirks
        }
    }

    enum Fault: String, CaseIterable, Sendable {
        case none = "no fault", wrongMAC = "a wrong MAC", lift = "lifted for 2 s"
    }

    struct QuirkCase: CustomTestStringConvertible, Sendable {
        let access: Access
        let lengths: Lengths
        let fault: Fault
        var testDescription: String { "\(access.rawValue), \(lengths.rawValue), \(fault.rawValue)" }
    }

    static let quirkCases: [QuirkCase] = Access.allCases.flatMap { access in
        Lengths.allCases.flatMap { lengths in Fault.allCases.map { QuirkCase(access: access, lengths: lengths, fault: $0) } }
    }

    @Test(arguments: quirkCases)
    func quirkMatrix(_ quirkCase: QuirkCase) async throws {
        let issuer = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let dataSet = try PassportDataSet.make(faceSize: 5000, signSecurityObject: { try issuer.securityObject($0) })
        var chipKey: VirtualPassport.ChipAuthenticationKey?
        var cardSecurity: [UInt8]?
        if quirkCase.access == .paceCAM {
            let key = try ChipAuthentication.chipKey(parameterID: 13, curve: "1.3.36.3.3.2.8.1.1.7")
            let securityInfos = DER.set(
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.4.6.2"), DER.integer(2), DER.integer(13)),
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), key.subjectPublicKeyInfo))
            cardSecurity = try issuer.signedContent(securityInfos, contentType: "0.4.0.127.0.7.3.2.1")
            chipKey = .init(privateKey: key.privateKey, parameterID: 13, cipher: .aes128)
        }
        let passport = VirtualPassport(
            key: try dataSet.key(), files: dataSet.files,
            cardAccess: quirkCase.access.paceProtocol.map { PassportDataSet.paceCardAccess(protocol: $0, parameterID: 13) },
            quirks: quirkCase.lengths.quirks, chipAuthenticationKey: chipKey, cardSecurity: cardSecurity)
        let card = PCSCTestEnvironment.card(passport, port: Self.port)
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        // The fault strikes at a random command: a different one on every run.
        let at = Int.random(in: 3...9)
        switch quirkCase.fault {
        case .none: break
        case .wrongMAC:
            var quirks = passport.quirks
            quirks.corruptMACOnCommand = at
            passport.quirks = quirks
        case .lift:
            var faults = CardFaults()
            faults.vanishAfterCommands = card.commandsAnswered + at
            card.faults = faults
        }
        // The person puts the document back 2 s after it left (cancelled when it never left).
        let hands = Task {
            guard quirkCase.fault == .lift else { return }
            while card.isInserted {
                guard (try? await Task.sleep(for: .milliseconds(10))) != nil else { return }
            }
            card.remove()
            card.faults = CardFaults()
            try? await Task.sleep(for: .seconds(2))
            try? await waitForCard(present: false)
            try? card.insert()
        }
        let reader = self.reader
        let logger = self.logger
        let reconnect: ChipReader.Reconnect = {
            // As the station does: see the document leave, wait until it is back, reconnect.
            // (SCardReconnect hammered while the card is away leaves pcscd reporting vpcd's
            // slot as occupied for many seconds after the card is gone.)
            let context = try PCSCContext(logger: logger)
            for _ in 0..<30 where try context.state(of: reader).cardPresent { try await Task.sleep(for: .milliseconds(100)) }
            for _ in 0..<100 {
                if try context.state(of: reader).cardPresent, (try? await connection.reconnect()) != nil { return connection }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw MRTDError(code: .cardLost, message: "not back within 10 s")
        }
        let contents: ChipContents
        do {
            contents = try await ChipReader(transport: connection, key: try dataSet.key(), reconnect: reconnect).read()
        } catch {
            hands.cancel()
            await hands.value
            await connection.disconnect()
            throw error
        }
        hands.cancel()
        await hands.value
        await connection.disconnect()
        let context = "fault at command \(at)"
        #expect(contents.files == dataSet.files, "\(context)")
        #expect(contents.accessControl == (quirkCase.access == .bac ? .bac : .pace), "\(context)")
        #expect(contents.paceFailure == nil, "\(context)")
        #expect(PassiveAuthentication.verify(files: contents.files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Self.now).outcome == .passed)
        if quirkCase.access == .paceCAM { #expect(contents.chipAuthentication?.outcome == .passed, "\(context): \(String(describing: contents.chipAuthentication))") }
        switch quirkCase.fault {
        case .none:
            #expect(passport.sessionsEstablished == 1)
            #expect(contents.statistics.reconnects == 0)
        case .wrongMAC:
            #expect(contents.statistics.sessionRestarts >= 1, "\(context)")
            #expect(passport.sessionsEstablished == contents.statistics.sessionRestarts + 1, "\(context)")
        case .lift:
            // Lifted during access control, the first session never was.
            #expect(contents.statistics.reconnects == 1, "\(context)")
            #expect((1...2).contains(passport.sessionsEstablished), "\(context)")
        }
    }
}
