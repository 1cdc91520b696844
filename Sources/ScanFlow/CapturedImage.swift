/// An image a capture pipeline took for a part, with what on-device reading found in it.
///
/// It carries personal data, so it prints only its side and size.
public struct CapturedImage: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The encoded image (JPEG).
    public let bytes: [UInt8]
    /// The side it shows (`front`, `back`, `face`, `document`).
    public let side: Credential.Part
    /// The chip access keys read from the MRZ, the likeliest first: the frames may have
    /// agreed on more than one reading (when the chip refuses the first, the next is tried).
    public let chipAccessKeys: [ChipAccessKey]
    /// The likeliest chip access key, when the image showed an MRZ.
    public var chipAccessKey: ChipAccessKey? { chipAccessKeys.first }
    /// Why the station's own Instant Feedback finds the image unusable (blurred, glare over
    /// the MRZ or photo, part of the document missing, no document, MRZ unreadable); nil
    /// when usable. A rejected image is not uploaded: the person retakes it.
    public let rejectReason: RejectReason?

    public init(bytes: [UInt8], side: Credential.Part, chipAccessKey: ChipAccessKey? = nil, rejectReason: RejectReason? = nil) {
        self.init(bytes: bytes, side: side, chipAccessKeys: chipAccessKey.map { [$0] } ?? [], rejectReason: rejectReason)
    }

    public init(bytes: [UInt8], side: Credential.Part, chipAccessKeys: [ChipAccessKey], rejectReason: RejectReason? = nil) {
        self.bytes = bytes
        self.side = side
        self.chipAccessKeys = chipAccessKeys
        self.rejectReason = rejectReason
    }

    public var description: String {
        "CapturedImage(\(side.rawValue), \(bytes.count) bytes, <redacted>\(chipAccessKeys.isEmpty ? "" : ", chip keys: \(chipAccessKeys.count)")\(rejectReason.map { ", rejected \($0)" } ?? ""))"
    }

    public var debugDescription: String { description }

    /// No children: `dump` and other mirrors must not reach the personal data either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
