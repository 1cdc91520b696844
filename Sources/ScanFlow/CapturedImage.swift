/// An image a capture pipeline took for a part, with what on-device reading found in it.
///
/// It carries personal data, so it prints only its side and size.
public struct CapturedImage: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The encoded image (JPEG).
    public let bytes: [UInt8]
    /// The side it shows (`front`, `back`, `face`, `document`).
    public let side: Credential.Part
    /// The chip access key read from the MRZ, when the image showed one.
    public let chipAccessKey: ChipAccessKey?

    public init(bytes: [UInt8], side: Credential.Part, chipAccessKey: ChipAccessKey? = nil) {
        self.bytes = bytes
        self.side = side
        self.chipAccessKey = chipAccessKey
    }

    public var description: String {
        "CapturedImage(\(side.rawValue), \(bytes.count) bytes, <redacted>\(chipAccessKey == nil ? "" : ", chip key"))"
    }

    public var debugDescription: String { description }

    /// No children: `dump` and other mirrors must not reach the personal data either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
