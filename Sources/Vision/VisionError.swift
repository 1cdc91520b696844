/// An analysis that could not run, with what a technician needs to act on it.
///
/// A frame in which nothing is found is not an error (it is an observation saying so): this
/// is for images the analysis cannot take (a size of zero, a buffer too short) and for the
/// library under it failing (`call` names the `idkcv_*` function, `message` says what
/// OpenCV said).
public struct VisionError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The image or a setting cannot be used (an empty image, a bad size).
        case invalidArgument
        /// OpenCV failed, or memory ran out.
        case library
    }

    public var kind: Kind
    /// The C function involved, e.g. `idkcv_finder_find`.
    public var call: String?
    public var message: String

    public init(kind: Kind, call: String? = nil, message: String) {
        self.kind = kind
        self.call = call
        self.message = message
    }

    public var description: String {
        guard let call else { return message }
        return "\(message) (\(call))"
    }
}
