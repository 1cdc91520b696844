/// How far reading the chip has come: bytes of the current file and of all files.
public struct ChipReadProgress: Hashable, Sendable, CustomStringConvertible {
    /// The file being read.
    public let file: LDSFile
    public let fileBytesRead: Int
    public let fileTotal: Int
    /// Bytes read of every file to read, EF.COM included.
    public let bytesRead: Int
    /// Bytes of every file to read, known once their headers are read.
    public let totalBytes: Int

    public init(file: LDSFile, fileBytesRead: Int, fileTotal: Int, bytesRead: Int, totalBytes: Int) {
        self.file = file
        self.fileBytesRead = fileBytesRead
        self.fileTotal = fileTotal
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }

    /// Overall progress between 0 and 1.
    public var fraction: Double { totalBytes == 0 ? 0 : Double(bytesRead) / Double(totalBytes) }

    public var description: String { "\(file) \(fileBytesRead)/\(fileTotal), overall \(bytesRead)/\(totalBytes)" }
}
