import APDU
import KioskTestKit
import MRTD
import Testing
import VirtualPassport

/// The virtual passport on its own: access control, secure messaging and its quirks.
@Suite struct VirtualPassportTests {
    static func passport(quirks: PassportQuirks = PassportQuirks()) throws -> (VirtualPassport, MRZKey) {
        let dataSet = try PassportDataSet.make(faceSize: 1000, signSecurityObject: { _ in [0x77, 0x00] })
        let key = try dataSet.key()
        return (VirtualPassport(key: key, files: dataSet.files, quirks: quirks), key)
    }

    static let selectApplication = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: VirtualPassport.applicationIdentifier)

    @Test func dataGroupsNeedAccessControl() throws {
        let (passport, _) = try Self.passport()
        #expect(passport.process(Self.selectApplication).status == .success)
        #expect(passport.process(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x01])).status == .success)
        #expect(passport.process(CommandAPDU(ins: 0xB0, le: 8)).status == .securityStatusNotSatisfied)
    }

    @Test func bacOpensAndAPlainCommandClosesTheSession() async throws {
        let (passport, key) = try Self.passport()
        let transport = InMemoryTransport(passport)
        _ = try await transport.transmit(Self.selectApplication)
        let channel = try await BAC.establish(with: key, over: transport)
        #expect(try await channel.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E])).status == .success)
        let head = try await channel.transmit(CommandAPDU(ins: 0xB0, le: 4))
        #expect(head.status == .success && head.data.first == 0x60)
        // A plain command ends secure messaging: the next protected command is refused.
        _ = try await transport.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]))
        let error = await #expect(throws: MRTDError.self) { try await channel.transmit(CommandAPDU(ins: 0xB0, le: 4)) }
        #expect(error?.code == .unprotectedResponse)
        #expect(passport.sessionsEstablished == 1)
    }

    @Test func wrongKeyIsRefusedWith6300() async throws {
        let (passport, _) = try Self.passport()
        let transport = InMemoryTransport(passport)
        _ = try await transport.transmit(Self.selectApplication)
        let wrong = try MRZKey(documentNumber: "X1234567", birthDate: "700101", expiryDate: "300101")
        let error = await #expect(throws: MRTDError.self) { try await BAC.establish(with: wrong, over: transport) }
        #expect(error?.code == .accessDenied)
        #expect(error?.statusWord == StatusWord(rawValue: 0x6300))
    }

    @Test func corruptedMACIsCaughtByTheTerminal() async throws {
        var quirks = PassportQuirks()
        quirks.corruptMACOnCommand = 1
        let (passport, key) = try Self.passport(quirks: quirks)
        let transport = InMemoryTransport(passport)
        _ = try await transport.transmit(Self.selectApplication)
        let channel = try await BAC.establish(with: key, over: transport)
        let error = await #expect(throws: MRTDError.self) {
            try await channel.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]))
        }
        #expect(error?.code == .macMismatch)
    }

    @Test func atrSaysWhetherExtendedLengthIsSupported() throws {
        var quirks = PassportQuirks()
        #expect(try ATR(bytes: Self.passport(quirks: quirks).0.atr).extendedLengthAnnounced == true)
        quirks.extendedLength = false
        #expect(try ATR(bytes: Self.passport(quirks: quirks).0.atr).extendedLengthAnnounced == false)
    }

    @Test func faceIsAJFIFStreamOfTheRequestedSize() {
        for size in [24, 1000, 20_000, 70_000] {
            let payload = PassportDataSet.jfifPayload(size: size)
            #expect(payload.count == size)
            #expect(payload.starts(with: [0xFF, 0xD8, 0xFF, 0xE0]) && payload.suffix(2) == [0xFF, 0xD9])
        }
    }
}
