public import APDU
import Synchronization

/// A card application that is just a file system: files readable without access
/// control unless marked protected. Used by `idkiosk sim card` and the tests of the
/// PC/SC layer.
public final class FileSystemCard: CardApplication {
    public let atr: [UInt8]
    private let fileSystem: Mutex<FileSystem>

    public init(atr: [UInt8] = FileSystemCard.defaultATR, fileSystem: FileSystem) {
        self.atr = atr
        self.fileSystem = Mutex(fileSystem)
    }

    /// A PC/SC part 3 contactless ATR whose card capabilities announce extended length.
    public static let defaultATR: [UInt8] = {
        let body: [UInt8] = [0x8A, 0x80, 0x01, 0x80, 0x31, 0xF8, 0x73, 0xF7, 0x41, 0xE0, 0x82, 0x90, 0x00]
        return [0x3B] + body + [body.reduce(0, ^)]
    }()

    /// A small demo card: an EF.DIR-like file in the MF and one application with two files.
    public static func demo(atr: [UInt8] = defaultATR) -> FileSystemCard {
        FileSystemCard(atr: atr, fileSystem: FileSystem(
            masterFiles: [.init(fid: 0x2F00, sfi: 0x1E, contents: Array("idkiosk virtual card".utf8))],
            applications: [.init(aid: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01], files: [
                .init(fid: 0x011E, sfi: 0x1E, contents: [0x60, 0x03, 0x5C, 0x01, 0x61]),
                .init(fid: 0x0101, sfi: 0x01, contents: (0..<600).map { UInt8($0 & 0xFF) }),
            ])]
        ))
    }

    public func reset() { fileSystem.withLock { $0.reset() } }

    public func process(_ command: CommandAPDU) -> ResponseAPDU { fileSystem.withLock { $0.process(command) } }
}
