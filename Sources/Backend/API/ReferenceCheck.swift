/// Why a reference was refused; names the field and the rule, never the value.
public struct ReferenceViolation: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Rule: String, Hashable, Sendable {
        case tooLong = "longer than 100 characters"
        case empty = "empty"
        case looksLikeMRZ = "looks like a machine readable zone"
        case looksLikeEmail = "looks like an e-mail address"
    }

    public let field: String
    public let rule: Rule

    public var description: String { "\(field) is \(rule.rawValue)" }
}

/// The rule for customerInternalReference, userReference and reportingCriteria: at
/// most 100 characters and no personal data pattern. The station checks before
/// sending; the reference backend checks again.
public enum ReferenceCheck {
    public static let maxLength = 100

    /// - Throws: ``ReferenceViolation`` for the first rule the value breaks.
    public static func check(_ value: String, field: String) throws(ReferenceViolation) {
        if value.isEmpty { throw ReferenceViolation(field: field, rule: .empty) }
        if value.count > maxLength { throw ReferenceViolation(field: field, rule: .tooLong) }
        if looksLikeEmail(value) { throw ReferenceViolation(field: field, rule: .looksLikeEmail) }
        if looksLikeMRZ(value) { throw ReferenceViolation(field: field, rule: .looksLikeMRZ) }
    }

    /// `local@domain.tld`: an `@` with something before it and a dot in what follows.
    static func looksLikeEmail(_ value: String) -> Bool {
        for word in value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" }) {
            guard let at = word.firstIndex(of: "@"), at != word.startIndex else { continue }
            let domain = word[word.index(after: at)...]
            if let dot = domain.lastIndex(of: "."), dot != domain.startIndex, domain.index(after: dot) != domain.endIndex {
                return true
            }
        }
        return false
    }

    /// MRZ fragments: the `<<` name separator, or a run of 20+ MRZ characters
    /// (`A`–`Z`, `0`–`9`, `<`) holding a filler, as a copied line would.
    static func looksLikeMRZ(_ value: String) -> Bool {
        if value.contains("<<") { return true }
        var run = 0
        var runHasFiller = false
        for scalar in value.unicodeScalars {
            let isMRZ = ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "<"
            if isMRZ {
                run += 1
                if scalar == "<" { runHasFiller = true }
                if run >= 20, runHasFiller { return true }
            } else {
                run = 0
                runHasFiller = false
            }
        }
        return false
    }
}
