/// A problem with the configuration file, naming the key, the value and what is allowed.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        case fileNotFound
        case unreadable(String)
        case syntax(String)
        case unknownKey(allowed: [String])
        case wrongType(expected: String)
        case invalidValue(allowed: String)
    }

    /// The file the problem is in.
    public var file: String
    /// The dotted key, e.g. `reader.transmit-timeout-ms`; empty for the whole file.
    public var key: String
    /// The value found, as written.
    public var value: String?
    public var problem: Problem

    public var description: String {
        let place = key.isEmpty ? file : "\(file): \(key)"
        switch problem {
        case .fileNotFound:
            return "\(file): no such configuration file (an example is in deploy/idkiosk.yaml)"
        case .unreadable(let why):
            return "\(file): cannot read the configuration: \(why)"
        case .syntax(let why):
            return "\(file): not valid YAML: \(why)"
        case .unknownKey(let allowed):
            return "\(place): unknown key; allowed here: \(allowed.joined(separator: ", "))"
        case .wrongType(let expected):
            return "\(place): \(value.map { "'\($0)'" } ?? "value") should be \(expected)"
        case .invalidValue(let allowed):
            return "\(place): '\(value ?? "")' is not allowed; allowed: \(allowed)"
        }
    }
}
