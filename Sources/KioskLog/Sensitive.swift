public import Logging

/// A value that is personal data: it prints, logs and dumps as `<redacted>`.
///
/// Wrap anything read from a person or their document (MRZ, names, dates, numbers,
/// images, tokens) before it can reach a string; read it back with `value` where it
/// is really needed.
public struct Sensitive<Value: Sendable>: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public let value: Value

    public init(_ value: Value) { self.value = value }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension Sensitive: Equatable where Value: Equatable {}
extension Sensitive: Hashable where Value: Hashable {}

extension Logger.MetadataValue {
    /// Metadata that shows only that a personal value was there.
    public static func sensitive<V: Sendable>(_ value: Sensitive<V>) -> Logger.MetadataValue {
        .string("<redacted>")
    }
}
