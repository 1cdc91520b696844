public import Vision

/// What the frame loop measured of a frame for a document capture: the document found,
/// the MRZ read from its perspective-corrected crop when one was asked for, and a small
/// thumbnail of the document (to tell a card's two faces apart).
public struct DocumentFrame: Sendable {
    public internal(set) var observation: DocumentObservation
    /// Whether the MRZ was looked for in this frame (a whole document, not too tilted; or
    /// anywhere in it, by the MRZ found first).
    public internal(set) var mrzLookedFor = false
    /// The MRZ read, if one was found. Personal data: never logged.
    public internal(set) var mrz: MRZReading?
    /// Whether the card's barcode was looked for in this frame (a whole card's back in `barcode` mode).
    var barcodeLookedFor = false
    /// The barcode decoded, if one was: its record, or why it is none.
    var barcode: BarcodeRead?
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

/// A barcode decoded on a card's back: the AAMVA record it holds, or why it holds none.
/// Personal data: never logged.
enum BarcodeRead: Sendable {
    case record(PDF417Symbol, AAMVARecord)
    /// A symbol that is no usable AAMVA record (another barcode, a record without the
    /// document's fields).
    case unusable(AAMVAError)

    /// Reads the symbol's record.
    init(_ symbol: PDF417Symbol) {
        do {
            self = .record(symbol, try AAMVARecord(symbol.bytes).validated())
        } catch {
            self = .unusable(error)
        }
    }
}
