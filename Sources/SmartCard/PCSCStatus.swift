import CPCSCLite

/// A PC/SC return code (`LONG` from every `SCard*` call), with its C name and meaning.
public struct PCSCStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `SCARD_S_SUCCESS`: no error was encountered.
    public static let success = PCSCStatus(rawValue: Int(SCARD_S_SUCCESS))

    /// The C constant's name, e.g. `SCARD_E_NO_SERVICE`; hex for codes pcsc-lite does not define.
    public var name: String {
        Self.known[self]?.name ?? "SCARD_0x" + String(UInt32(truncatingIfNeeded: rawValue), radix: 16, uppercase: true)
    }

    /// pcsc-lite's own sentence for the code.
    public var message: String { Self.known[self]?.message ?? "Unknown PC/SC return code." }

    /// Whether trying again (after the card, reader or service comes back) can succeed.
    public var isRetryable: Bool { Self.known[self]?.retryable ?? false }

    public var description: String { name }
}
