import Foundation

/// The configuration file's text as support may see it: what could hold a secret is
/// removed, and what was removed is listed, so support knows the gap is deliberate.
///
/// Works on the text, line by line, not on the parsed ``Configuration``: a bundle is most
/// wanted when the file does not parse, and support needs the file as it is written.
/// Removed are comments (a person may have pasted anything there), the values of keys
/// whose name says secret, token, password, credential or key (paths to secret files
/// stay: `*-file` keys name where a secret lives, never the secret), and the user and
/// password part of every URL.
public struct ConfigurationRedaction: Sendable, Hashable {
    /// The text with secrets removed.
    public var text: String
    /// One line per kind of removal, naming the key and line (never the value).
    public var removed: [String]

    public static let replacement = "<removed>"

    /// Words in a key that mark its value as a secret (split at `-`, `_`, `.`).
    static let secretWords: Set<String> = ["secret", "token", "password", "passwd", "passphrase", "credential", "credentials", "key", "private", "pin"]
    /// Keys whose name has such a word but whose value is none: the workflow definition's number.
    static let notSecret: Set<String> = ["workflow-key", "spki-pins"]

    /// Redacts `text`, a YAML configuration file.
    public init(_ text: String) {
        var out: [String] = []
        var removed: [String] = []
        var comments = 0
        // The keys of the enclosing sections, by indentation, to name a removal `backend.url`.
        var path: [(indent: Int, key: String)] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = String(rawLine)
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                comments += 1
                continue
            }
            if let cut = Self.commentStart(line) {
                line = String(line[..<cut]).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
                comments += 1
            }
            let indent = line.prefix { $0 == " " }.count
            var name = "line \(number)"
            if let match = line.firstMatch(of: #/^(\s*)(-\s+)?([A-Za-z0-9_.-]+)\s*:(\s*)(.*)$/#) {
                let key = String(match.3)
                path.removeAll { $0.indent >= indent }
                let full = (path.map(\.key) + [key]).joined(separator: ".")
                path.append((indent, key))
                name = "\(full) (line \(number))"
                let value = String(match.5)
                if !value.isEmpty, Self.isSecret(key: key) {
                    line = "\(match.1)\(match.2 ?? "")\(key):\(match.4)\"\(Self.replacement)\""
                    removed.append("the value of \(name)")
                    out.append(line)
                    continue
                }
            }
            let stripped = Self.removingURLCredentials(line)
            if stripped != line { removed.append("the user and password of a URL in \(name)") }
            out.append(stripped)
        }
        if comments > 0 { removed.insert("\(comments) comments (they may hold anything a person typed)", at: 0) }
        self.text = out.joined(separator: "\n")
        self.removed = removed
    }

    /// Whether a key's value is a secret by the key's name.
    static func isSecret(key: String) -> Bool {
        let lower = key.lowercased()
        if lower.hasSuffix("-file") || lower.hasSuffix("_file") || notSecret.contains(lower) { return false }
        return lower.split(whereSeparator: { "-_.".contains($0) }).contains { secretWords.contains(String($0)) }
    }

    /// Where a trailing ` #` comment starts, outside quotes.
    static func commentStart(_ line: String) -> String.Index? {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let c = line[index]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#", previous == " " || previous == "\t" {
                return index
            }
            previous = c
        }
        return nil
    }

    /// `scheme://user:password@host` becomes `scheme://<removed>@host`, anywhere in `line`.
    public static func removingURLCredentials(_ line: String) -> String {
        line.replacing(#/([A-Za-z][A-Za-z0-9+.-]*://)[^/\s@"']+@/#) { match in "\(match.1)\(replacement)@" }
    }
}

/// Replaces known secret values (the client secret, the display token, the outbox key)
/// wherever they appear in the bundle's text: the second line behind every part's own
/// redaction, for a secret that ends up where nobody expected it.
public struct SecretScrubber: Sendable {
    /// The secrets by the name the replacement shows; values shorter than 8 characters are
    /// ignored (they would match by chance, and are no secret worth the name).
    public let secrets: [(name: String, value: String)]

    public init(_ secrets: [(name: String, value: String)]) {
        self.secrets = secrets.filter { $0.value.count >= 8 }
    }

    /// `text` with every secret replaced, and how many of each were found.
    public func scrub(_ text: String) -> (text: String, found: [String: Int]) {
        var out = text
        var found: [String: Int] = [:]
        for (name, value) in secrets {
            // Also the JSON-escaped form: a secret with `/` or `"` in a JSON part.
            for form in Set([value, value.replacingOccurrences(of: "/", with: "\\/"), value.replacingOccurrences(of: "\"", with: "\\\"")]) {
                let count = out.components(separatedBy: form).count - 1
                guard count > 0 else { continue }
                found[name, default: 0] += count
                out = out.replacingOccurrences(of: form, with: "<removed:\(name)>")
            }
        }
        return (out, found)
    }
}
