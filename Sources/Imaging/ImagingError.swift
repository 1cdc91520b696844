/// An error from pixel conversion or an image codec, carrying what went wrong and where.
///
/// `kind` says what went wrong; `call` names the libjpeg-turbo or OpenJPEG function that
/// failed, when one did, and `message` is that library's own text or ours. Modules that
/// deliver frames (`Camera`) map it to their own error where they convert.
public struct ImagingError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Compressed data (JPEG, JPEG 2000) could not be decoded or encoded.
        case codec
        /// The pixel format, component count or image size is not one this module handles.
        case unsupportedFormat
        /// A frame holds fewer bytes than its format and size need.
        case malformedFrame
        /// A value that cannot be used, e.g. an empty image to encode.
        case invalidArgument
    }

    public var kind: Kind
    /// The C function involved, e.g. `tjDecompressHeader3` or `opj_decode`.
    public var call: String?
    /// What happened, in plain words.
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

/// The result of one C call in this module.
typealias ImagingResult<T> = Result<T, ImagingError>
