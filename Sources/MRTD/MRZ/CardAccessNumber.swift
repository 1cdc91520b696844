/// A card access number: the six digits printed on the data page, a PACE password
/// (ICAO Doc 9303 Part 11 §9.7.3). Its description is redacted.
public struct CardAccessNumber: Hashable, Sendable {
    let digits: String

    /// Takes the number as typed; spaces are ignored.
    /// - Throws: ``MRZError/invalidField(_:reason:)`` for `.cardAccessNumber` unless exactly six digits remain.
    public init(_ text: String) throws(MRZError) {
        let digits = text.filter { $0 != " " }
        guard digits.utf8.count == 6, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .invalidField(.cardAccessNumber, reason: "must be six digits")
        }
        self.digits = digits
    }

    /// The PACE password bytes: the digits as ASCII.
    var passwordBytes: [UInt8] { Array(digits.utf8) }
}

extension CardAccessNumber: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "CardAccessNumber(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
