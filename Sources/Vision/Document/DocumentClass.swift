/// The kind of document by its shape (ICAO Doc 9303 Parts 4-6): what size it is, where its
/// MRZ is, and the size of its perspective-corrected image.
public enum DocumentClass: String, Hashable, Sendable, Codable, CaseIterable {
    /// ID-1 (85.60 x 53.98 mm): an identity card; its MRZ is 3 lines of 30 on the back.
    case td1 = "TD1"
    /// ID-2 (105 x 74 mm): 2 lines of 36.
    case td2 = "TD2"
    /// ID-3 (125 x 88 mm): a passport's data page; 2 lines of 44.
    case td3 = "TD3"

    /// Width and height in millimetres.
    public var size: (width: Double, height: Double) {
        switch self {
        case .td1: (85.60, 53.98)
        case .td2: (105, 74)
        case .td3: (125, 88)
        }
    }

    public var aspectRatio: Double { size.width / size.height }

    /// The resolution of a crop: 10 pixels a millimetre, enough for OCR-B at 2.54 mm a character.
    public static let cropPixelsPerMillimetre = 10.0

    /// The size of the perspective-corrected image at `pixelsPerMillimetre`.
    public func cropSize(pixelsPerMillimetre: Double = cropPixelsPerMillimetre) -> (width: Int, height: Int) {
        (Int((size.width * pixelsPerMillimetre).rounded()), Int((size.height * pixelsPerMillimetre).rounded()))
    }

    /// The MRZ's lines and characters per line.
    public var mrzShape: (lines: Int, characters: Int) {
        switch self {
        case .td1: (3, 30)
        case .td2: (2, 36)
        case .td3: (2, 44)
        }
    }

    /// The MRZ zone as fractions of the page (x, y, width, height, from the top-left): the
    /// bottom 23.2 mm of an ID-2/ID-3 page and 17.9 mm of a card's back (Doc 9303 Parts 4-5).
    public var mrzZone: (x: Double, y: Double, width: Double, height: Double) {
        let height = self == .td1 ? 17.9 : 23.2
        return (0, 1 - height / size.height, 1, height / size.height)
    }

    /// Where the portrait usually is on the side with the photo (the left part of the page
    /// above the MRZ zone, Doc 9303 Part 3's zone V).
    public var photoZone: (x: Double, y: Double, width: Double, height: Double) {
        switch self {
        case .td1: (0.03, 0.18, 0.33, 0.75)
        case .td2, .td3: (0.03, 0.15, 0.32, 0.55)
        }
    }
}
