import Vision

/// What the frame loop measured of a frame for a document capture: the document found,
/// the MRZ read from its perspective-corrected crop when one was asked for, and a small
/// thumbnail of the document (to tell a card's two faces apart).
struct DocumentFrame: Sendable {
    var observation: DocumentObservation
    /// Whether the MRZ was looked for in this frame (a whole document, not too tilted).
    var mrzLookedFor = false
    /// The MRZ read, if one was found.
    var mrz: MRZReading?
    /// The document's luma at ``thumbnailSize``, when it is whole.
    var thumbnail: [UInt8]?
    /// The capture's time of the frame (set by the capture, not the processor).
    var at: Duration = .zero

    /// The size of ``thumbnail``: enough to tell a face of a card from the other, no detail.
    static let thumbnailSize = (width: 48, height: 32)

    /// The mean absolute difference of two thumbnails, in luma levels.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 255 }
        var sum = 0
        for i in a.indices { sum += abs(Int(a[i]) - Int(b[i])) }
        return Double(sum) / Double(a.count)
    }
}
