import Foundation

/// Removes personal data from log text: the last line of defence after `Sensitive`.
///
/// Metadata keys that name personal data have their values replaced whole; message
/// text and other values are scanned for shapes personal data takes (MRZ lines, dates
/// of birth, e-mail addresses, long encoded blobs such as images or tokens).
public struct Redactor: Sendable {
    /// Key words that mark a metadata key as personal (matched against the key's
    /// parts split at `.`, `_`, `-` and case changes).
    public static let personalKeyWords: Set<String> = [
        "mrz", "name", "names", "surname", "given", "birth", "dob", "expiry", "expires", "nationality",
        "document", "passport", "number", "image", "photo", "face", "portrait", "signature", "token",
        "secret", "password", "can", "pin", "key", "address", "email", "phone", "personal",
    ]

    public static let replacement = "<redacted>"

    public init() {}

    /// Whether a metadata key names personal data.
    public func isPersonal(key: String) -> Bool {
        Self.words(of: key).contains { Self.personalKeyWords.contains($0) }
    }

    /// `text` with every personal-looking fragment replaced, and an HTTP credential after
    /// `Bearer` or `Basic` (RFC 6750, RFC 7617) replaced whole.
    public func redact(_ text: String) -> String {
        var out = Self.redactCredentials(text)
        for pattern in Self.patterns {
            out = out.replacing(pattern.regex, with: pattern.replacement)
        }
        return out
    }

    /// A log line as a log handler wrote it (`key=value` fields after the message, or a
    /// JSON object), with what `redact(_:)` finds replaced and the values of fields whose
    /// key names personal data (``isPersonal(key:)``) replaced whole. For logs read back from
    /// journald or a file, where a line may come from a handler that redacted less.
    public func redact(logLine line: String) -> String {
        var out = Self.redactCredentials(line)
        out = out.replacing(Self.field) { match in
            isPersonal(key: String(match.2)) ? "\(match.1)\(match.2)=\(Self.replacement)" : String(match.0)
        }
        out = out.replacing(Self.jsonField) { match in
            isPersonal(key: String(match.1)) ? "\"\(match.1)\":\"\(Self.replacement)\"" : String(match.0)
        }
        return redact(out)
    }

    // `key=value` or `key="quoted value"` after a space, as StructuredLogHandler writes them.
    nonisolated(unsafe) private static let field = #/(^|\s)([A-Za-z_][A-Za-z0-9_.-]*)=("(?:[^"\\]|\\.)*"|\S*)/#
    nonisolated(unsafe) private static let jsonField = #/"([A-Za-z_][A-Za-z0-9_.-]*)"\s*:\s*"(?:[^"\\]|\\.)*"/#
    // A scheme and its credential: RFC 6750's b64token for Bearer, base64 for Basic.
    nonisolated(unsafe) private static let bearer = #/(?i)\b(bearer)\s+([A-Za-z0-9._~+\/-]+=*)/#
    nonisolated(unsafe) private static let basic = #/(?i)\b(basic)\s+([A-Za-z0-9+\/]+={0,2})/#

    /// `text` with the credential after `Bearer` (8 characters or more) or `Basic` (base64 of
    /// `user:password`, RFC 7617) replaced. Words that only follow the scheme's name stay:
    /// "Basic Access Control" is not base64 of a user and password, "bearer token" too short.
    static func redactCredentials(_ text: String) -> String {
        var out = text.replacing(bearer) { match in
            match.2.count >= 8 ? "\(match.1) \(replacement)" : String(match.0)
        }
        out = out.replacing(basic) { match in
            let encoded = String(match.2)
            let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            guard let decoded = Data(base64Encoded: padded), decoded.contains(UInt8(ascii: ":")) else {
                return String(match.0)
            }
            return "\(match.1) \(replacement)"
        }
        return out
    }

    private struct Pattern: @unchecked Sendable {
        let regex: Regex<AnyRegexOutput>
        let replacement: String
    }

    // Order matters: blobs first, so a token is not half-eaten by the MRZ pattern.
    private static let patterns: [Pattern] = [
        // JSON Web Tokens and other dotted tokens.
        Pattern(regex: try! Regex(#"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*)?"#), replacement: "<redacted:token>"),
        // Base64 / hex blobs: images, chip data, keys.
        Pattern(regex: try! Regex(#"[A-Za-z0-9+/_=-]{48,}"#), replacement: "<redacted:blob>"),
        // MRZ lines and fragments: upper-case letters, digits and at least one filler.
        Pattern(regex: try! Regex(#"[A-Z0-9<]*[A-Z0-9]<[A-Z0-9<]*"#), replacement: "<redacted:mrz>"),
        // E-mail addresses.
        Pattern(regex: try! Regex(#"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#), replacement: "<redacted:email>"),
        // Calendar dates: ISO, European, and the MRZ's YYMMDD.
        Pattern(regex: try! Regex(#"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"#), replacement: "<redacted:date>"),
        Pattern(regex: try! Regex(#"\b\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\b"#), replacement: "<redacted:date>"),
        // Document-number-like runs: letters and digits mixed, 8 or more.
        Pattern(regex: try! Regex(#"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{8,}\b"#), replacement: "<redacted:number>"),
    ]

    static func words(of key: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for ch in key {
            if ch == "." || ch == "_" || ch == "-" || ch == " " {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                previousWasLower = false
                continue
            }
            if ch.isUppercase && previousWasLower {
                words.append(current.lowercased())
                current = ""
            }
            current.append(ch)
            previousWasLower = ch.isLowercase
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }
}
