public import APDU

/// An ISO/IEC 7816-4 file system as a chip keeps it: a master file, applications
/// (DFs selected by AID) and elementary files (by FID or short file identifier).
///
/// A value type with one `mutating` entry point, so a card application can keep it
/// in its own state and put access control (BAC, PACE) in front of it.
public struct FileSystem: Sendable {
    public struct ElementaryFile: Sendable {
        public var fid: UInt16
        public var sfi: UInt8?
        public var contents: [UInt8]
        /// Readable only after `securityStatusSatisfied` is set (by access control).
        public var protected: Bool

        public init(fid: UInt16, sfi: UInt8? = nil, contents: [UInt8], protected: Bool = false) {
            self.fid = fid
            self.sfi = sfi
            self.contents = contents
            self.protected = protected
        }
    }

    public struct Application: Sendable {
        public var aid: [UInt8]
        public var files: [ElementaryFile]

        public init(aid: [UInt8], files: [ElementaryFile]) {
            self.aid = aid
            self.files = files
        }
    }

    public var masterFiles: [ElementaryFile]
    public var applications: [Application]
    /// Set by access control; protected files answer `6982` until it is.
    public var securityStatusSatisfied = false
    /// Source of GET CHALLENGE answers; replaceable so tests can script them.
    public var challengeSource: @Sendable (Int) -> [UInt8] = { count in (0..<count).map { _ in UInt8.random(in: 0...255) } }

    private var currentApplication: Int?
    private var currentFile: (application: Int?, index: Int)?

    public init(masterFiles: [ElementaryFile] = [], applications: [Application] = []) {
        self.masterFiles = masterFiles
        self.applications = applications
    }

    /// Forgets the selection and the security status, as a reset does.
    public mutating func reset() {
        currentApplication = nil
        currentFile = nil
        securityStatusSatisfied = false
    }

    /// Answers SELECT, READ BINARY (B0 and B1) and GET CHALLENGE; `6D00` for anything else.
    public mutating func process(_ command: CommandAPDU) -> ResponseAPDU {
        switch command.ins {
        case 0xA4: return select(command)
        case 0xB0: return readBinary(command)
        case 0xB1: return readBinaryOddINS(command)
        case 0x84:
            guard let le = command.le, le <= 256 else { return ResponseAPDU(status: .wrongLength) }
            return ResponseAPDU(data: challengeSource(le), status: .success)
        default:
            return ResponseAPDU(status: .instructionNotSupported)
        }
    }

    /// The file currently selected, if any.
    public var selectedFile: ElementaryFile? {
        guard let (app, index) = currentFile else { return nil }
        return app.map { applications[$0].files[index] } ?? masterFiles[index]
    }

    private var filesInScope: [ElementaryFile] {
        currentApplication.map { applications[$0].files } ?? masterFiles
    }

    private mutating func select(_ command: CommandAPDU) -> ResponseAPDU {
        switch command.p1 {
        case 0x04:  // by DF name
            guard let index = applications.firstIndex(where: { $0.aid == command.data }) else {
                return ResponseAPDU(status: .fileNotFound)
            }
            currentApplication = index
            currentFile = nil
            return ResponseAPDU(status: .success)
        case 0x00, 0x02:  // MF, or EF under the current DF
            if command.data.isEmpty || command.data == [0x3F, 0x00] {
                guard command.p1 == 0x00 else { return ResponseAPDU(status: .incorrectData) }
                currentApplication = nil
                currentFile = nil
                return ResponseAPDU(status: .success)
            }
            guard command.data.count == 2 else { return ResponseAPDU(status: .incorrectData) }
            let fid = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
            guard let index = filesInScope.firstIndex(where: { $0.fid == fid }) else {
                return ResponseAPDU(status: .fileNotFound)
            }
            currentFile = (currentApplication, index)
            if command.p2 & 0x0C == 0x0C { return ResponseAPDU(status: .success) }
            let size = filesInScope[index].contents.count
            let fcp: [UInt8] = [0x62, 0x08, 0x80, 0x02, UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF), 0x83, 0x02, command.data[0], command.data[1]]
            return ResponseAPDU(data: fcp, status: .success)
        default:
            return ResponseAPDU(status: .incorrectP1P2)
        }
    }

    private mutating func readBinary(_ command: CommandAPDU) -> ResponseAPDU {
        let offset: Int
        if command.p1 & 0x80 != 0 {
            let sfi = command.p1 & 0x1F
            guard let index = filesInScope.firstIndex(where: { $0.sfi == sfi }) else {
                return ResponseAPDU(status: .fileNotFound)
            }
            currentFile = (currentApplication, index)
            offset = Int(command.p2)
        } else {
            offset = Int(command.p1 & 0x7F) << 8 | Int(command.p2)
        }
        return read(at: offset, le: command.le ?? 256, wrap: false)
    }

    private mutating func readBinaryOddINS(_ command: CommandAPDU) -> ResponseAPDU {
        // Offset in DO'54' (ISO/IEC 7816-4 §11.3.3), answer in DO'53'.
        guard command.data.count >= 3, command.data[0] == 0x54, Int(command.data[1]) == command.data.count - 2,
            command.data.count - 2 <= 3
        else { return ResponseAPDU(status: .incorrectData) }
        let offset = command.data.dropFirst(2).reduce(0) { $0 << 8 | Int($1) }
        return read(at: offset, le: command.le ?? 256, wrap: true)
    }

    private func read(at offset: Int, le: Int, wrap: Bool) -> ResponseAPDU {
        guard let file = selectedFile else { return ResponseAPDU(status: .commandNotAllowed) }
        if file.protected && !securityStatusSatisfied { return ResponseAPDU(status: .securityStatusNotSatisfied) }
        guard offset <= file.contents.count else { return ResponseAPDU(status: .wrongP1P2) }
        let overhead = wrap ? 4 : 0
        let wanted = max(0, le - overhead)
        let chunk = Array(file.contents[offset..<min(file.contents.count, offset + wanted)])
        let data = wrap ? wrapInDO53(chunk) : chunk
        let asksForAll = le == CommandAPDU.maxShortLe || le == CommandAPDU.maxExtendedLe
        let status: StatusWord = chunk.count < wanted && !asksForAll ? .endOfFileReached : .success
        return ResponseAPDU(data: data, status: status)
    }

    private func wrapInDO53(_ bytes: [UInt8]) -> [UInt8] {
        switch bytes.count {
        case ..<0x80: return [0x53, UInt8(bytes.count)] + bytes
        case ..<0x100: return [0x53, 0x81, UInt8(bytes.count)] + bytes
        default: return [0x53, 0x82, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
        }
    }
}
