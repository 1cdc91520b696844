/// A failure inside libcrypto, as OpenSSL reported it.
///
/// It is the `cause` of an ``MRTDError`` with code `.cryptoFailure`; a technician reads
/// `function` to know which operation failed and `reason` for OpenSSL's own words.
public struct OpenSSLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The shim or libcrypto function that failed (for example `COpenSSL_cipher`).
    public var function: String
    /// The packed OpenSSL error code (`ERR_get_error`), 0 when OpenSSL queued none.
    public var code: UInt
    /// OpenSSL's error string, or our explanation when OpenSSL gave none.
    public var reason: String

    public init(function: String, code: UInt, reason: String) {
        self.function = function
        self.code = code
        self.reason = reason
    }

    public var description: String {
        code == 0 ? "\(function) failed: \(reason)" : "\(function) failed: \(reason) (OpenSSL error \(code))"
    }
}
