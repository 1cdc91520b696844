/// The holder's name from an MRZ: primary and secondary identifiers (ICAO Doc 9303 Part 3 §4.6).
///
/// Its description is redacted: names are personal data.
public struct MRZName: Hashable, Sendable {
    /// The primary identifier (surname), name components separated by single spaces.
    public let primaryIdentifier: String
    /// The secondary identifier (given names), components separated by single spaces;
    /// empty when the document has none.
    public let secondaryIdentifier: String

    public init(primaryIdentifier: String, secondaryIdentifier: String) {
        self.primaryIdentifier = primaryIdentifier
        self.secondaryIdentifier = secondaryIdentifier
    }

    /// Splits an MRZ name field: `<<` separates the identifiers, `<` the components.
    init(field: Substring) {
        var end = field.endIndex
        while end > field.startIndex, field[field.index(before: end)] == "<" { end = field.index(before: end) }
        let parts = field[..<end].split(separator: "<<", maxSplits: 1, omittingEmptySubsequences: false)
        func words(_ part: Substring?) -> String {
            guard let part else { return "" }
            return part.split(separator: "<").joined(separator: " ")
        }
        primaryIdentifier = words(parts.first)
        secondaryIdentifier = words(parts.count > 1 ? parts[1] : nil)
    }
}

extension MRZName: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "MRZName(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
