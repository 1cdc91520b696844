/// The seeds' `Jumio.Retry` namespace.
public enum Retry {
    /// Why a part has to be scanned again, with a code and a message to show.
    ///
    /// The code and message come from the pipeline or the backend; they describe the
    /// capture ("face not centred"), never the person.
    public struct Reason: Hashable, Sendable, Codable, CustomStringConvertible {
        public var code: Int
        public var message: String

        public init(code: Int, message: String) {
            self.code = code
            self.message = message
        }

        public var description: String { "retry \(code): \(message)" }
    }
}
