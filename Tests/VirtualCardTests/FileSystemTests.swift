import APDU
import KioskTestKit
import Testing
import VirtualCard

@Suite struct FileSystemTests {
    let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]

    func card(protected: Bool = false) -> FileSystem {
        FileSystem(
            masterFiles: [.init(fid: 0x011C, sfi: 0x1C, contents: [1, 2, 3])],
            applications: [.init(aid: aid, files: [
                .init(fid: 0x011E, sfi: 0x1E, contents: [0x60, 0x03, 0x5C, 0x01, 0x61]),
                .init(fid: 0x0101, sfi: 0x01, contents: (0..<300).map { UInt8($0 & 0xFF) }, protected: protected),
            ])])
    }

    @Test func selectByAIDThenFIDAndRead() {
        var fs = card()
        #expect(fs.process(CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: aid)).status == .success)
        #expect(fs.process(CommandAPDU(ins: 0xA4, p1: 2, p2: 0x0C, data: [0x01, 0x1E])).status == .success)
        let r = fs.process(CommandAPDU(ins: 0xB0, le: 256))
        #expect(r == ResponseAPDU(data: [0x60, 0x03, 0x5C, 0x01, 0x61], status: .success))
    }

    @Test func readBySFISelectsTheFile() {
        var fs = card()
        _ = fs.process(CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: aid))
        let r = fs.process(CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0x10, le: 4))
        #expect(r.data == [16, 17, 18, 19])
        #expect(fs.selectedFile?.fid == 0x0101)
    }

    @Test func shortReadAtEndOfFileSays6282() {
        var fs = card()
        _ = fs.process(CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: aid))
        let r = fs.process(CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0x00, le: 10))
        #expect(r.status == .success)
        let tail = fs.process(CommandAPDU(ins: 0xB0, p1: 0x01, p2: 0x28, le: 10))  // offset 296
        #expect(tail == ResponseAPDU(data: [0x28, 0x29, 0x2A, 0x2B], status: .endOfFileReached))
        #expect(fs.process(CommandAPDU(ins: 0xB0, p1: 0x02, p2: 0x00, le: 1)).status == .wrongP1P2)
    }

    @Test func oddInsReadWrapsInDO53() {
        var fs = card()
        _ = fs.process(CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: aid))
        _ = fs.process(CommandAPDU(ins: 0xA4, p1: 2, p2: 0x0C, data: [0x01, 0x01]))
        let r = fs.process(CommandAPDU(ins: 0xB1, data: [0x54, 0x02, 0x01, 0x00], le: 8))
        #expect(r == ResponseAPDU(data: [0x53, 0x04, 0, 1, 2, 3], status: .success))
        #expect(fs.process(CommandAPDU(ins: 0xB1, data: [0x55, 0x01, 0x00], le: 8)).status == .incorrectData)
    }

    @Test func protectedFilesNeedTheSecurityStatus() {
        var fs = card(protected: true)
        _ = fs.process(CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: aid))
        #expect(fs.process(CommandAPDU(ins: 0xB0, p1: 0x81, le: 4)).status == .securityStatusNotSatisfied)
        fs.securityStatusSatisfied = true
        #expect(fs.process(CommandAPDU(ins: 0xB0, p1: 0x81, le: 4)).status == .success)
        fs.reset()
        #expect(fs.process(CommandAPDU(ins: 0xB0, p1: 0x81, le: 4)).status == .fileNotFound)  // MF again after reset
    }

    @Test func otherCommands() {
        var fs = card()
        #expect(fs.process(CommandAPDU(ins: 0x84, le: 8)).data.count == 8)
        #expect(fs.process(CommandAPDU(ins: 0x84)).status == .wrongLength)
        #expect(fs.process(CommandAPDU(ins: 0xCA)).status == .instructionNotSupported)
        #expect(fs.process(CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: [1, 2])).status == .fileNotFound)
        #expect(fs.process(CommandAPDU(ins: 0xA4, p1: 2, p2: 0x0C, data: [0x01, 0x1C])).status == .success)
        #expect(fs.process(CommandAPDU(ins: 0xB0, le: 256)).data == [1, 2, 3])
        let fcp = fs.process(CommandAPDU(ins: 0xA4, p1: 2, p2: 0x04, data: [0x01, 0x1C], le: 256))
        #expect(fcp.data == [0x62, 0x08, 0x80, 0x02, 0x00, 0x03, 0x83, 0x02, 0x01, 0x1C])
    }

    @Test func inMemoryTransportInjectsFaults() async throws {
        let transport = InMemoryTransport(FileSystemCard.demo())
        #expect(try await transport.transmit(CommandAPDU(ins: 0x84, le: 8)).status == .success)
        transport.failAfter(1)
        _ = try await transport.transmit(CommandAPDU(ins: 0x84, le: 8))
        await #expect(throws: InMemoryTransport.Fault.self) { try await transport.transmit(CommandAPDU(ins: 0x84, le: 8)) }
        #expect(transport.commands.count == 2)
    }

    @Test func defaultATRParsesAndAnnouncesExtendedLength() throws {
        let atr = try ATR(bytes: FileSystemCard.defaultATR)
        #expect(atr.checksumValid == true)
        #expect(atr.extendedLengthAnnounced == true)
    }
}
