/// Why an LDS file (EF.COM, a data group, EF.SOD, EF.CardAccess) could not be parsed.
///
/// Every error names the file and the byte offset in it where the problem is, so a
/// technician can find it in a dump; the message never quotes the file's contents.
public struct LDSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file being parsed.
    public var file: LDSFile
    /// The byte offset in the file where parsing stopped.
    public var offset: Int
    /// What was expected there.
    public var reason: String
    /// The TLV error underneath, when the bytes are not BER-TLV at all.
    public var tlvError: TLVError?

    public init(file: LDSFile, offset: Int, reason: String, tlvError: TLVError? = nil) {
        self.file = file
        self.offset = offset
        self.reason = reason
        self.tlvError = tlvError
    }

    public var description: String {
        var text = "\(file) is malformed at offset \(offset): \(reason)"
        if let tlvError { text += " (\(tlvError))" }
        return text
    }
}

extension LDSError {
    /// Wraps a TLV error found while parsing `file`; `base` is where the parsed bytes
    /// start in the file, for values that were parsed on their own.
    static func tlv(_ error: TLVError, in file: LDSFile, base: Int = 0) -> LDSError {
        LDSError(file: file, offset: base + error.offset, reason: "not valid BER-TLV", tlvError: error)
    }
}
