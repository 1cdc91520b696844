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
    /// Why the station's own Instant Feedback finds the image unusable (blurred, glare over
    /// the MRZ or photo, part of the document missing, no document, MRZ unreadable); nil
    /// when usable. A rejected image is not uploaded: the person retakes it.
    public let rejectReason: RejectReason?

    public init(bytes: [UInt8], side: Credential.Part, chipAccessKey: ChipAccessKey? = nil, rejectReason: RejectReason? = nil) {
        self.bytes = bytes
        self.side = side
        self.chipAccessKey = chipAccessKey
        self.rejectReason = rejectReason
    }

    public var description: String {
        "CapturedImage(\(side.rawValue), \(bytes.count) bytes, <redacted>\(chipAccessKey == nil ? "" : ", chip key")\(rejectReason.map { ", rejected \($0)" } ?? ""))"
    }

    public var debugDescription: String { description }

    /// No children: `dump` and other mirrors must not reach the personal data either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
