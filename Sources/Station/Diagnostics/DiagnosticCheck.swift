/// One check of `idkiosk diag backend` and `diag all`: what was looked at, how it went, what
/// was found, and what to do about it. Never personal data or secrets.
public struct DiagnosticCheck: Codable, Hashable, Sendable {
    public enum Status: String, Codable, Hashable, Sendable, Comparable {
        case pass, warn, fail

        private var rank: Int { self == .pass ? 0 : self == .warn ? 1 : 2 }
        public static func < (a: Status, b: Status) -> Bool { a.rank < b.rank }
    }

    /// What was checked (`dns`, `tcp`, `tls+token`, `clock`, ...).
    public var name: String
    public var status: Status
    /// What was found, in a line.
    public var detail: String
    /// What to do when it is not `pass`.
    public var hint: String?

    public init(_ name: String, _ status: Status, _ detail: String, hint: String? = nil) {
        self.name = name
        self.status = status
        self.detail = detail
        self.hint = hint
    }
}

extension [DiagnosticCheck] {
    /// The worst status among the checks (`pass` for none).
    public var worst: DiagnosticCheck.Status { map(\.status).max() ?? .pass }
}
