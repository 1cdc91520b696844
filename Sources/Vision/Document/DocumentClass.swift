/// The kind of document by its shape: the ICAO sizes of identity documents (Doc 9303 Parts
/// 4-6), with their MRZ, and the paper sizes of a page of print (ISO 216 A4, US Letter).
/// What size it is, where its MRZ is, and the size of its perspective-corrected image.
///
/// Sizes are long side by short side. A page may lie portrait or landscape; its crop is
/// upright as it lay in the frame (``DocumentFinder/crop(_:_:as:pixelsPerMillimetre:)``).
public enum DocumentClass: String, Hashable, Sendable, Codable, CaseIterable {
    /// ID-1 (85.60 x 53.98 mm): an identity card; its MRZ is 3 lines of 30 on the back.
    case td1 = "TD1"
    /// ID-2 (105 x 74 mm): 2 lines of 36.
    case td2 = "TD2"
    /// ID-3 (125 x 88 mm): a passport's data page; 2 lines of 44.
    case td3 = "TD3"
    /// ISO 216 A4 (297 x 210 mm): a page of a paper document (a bill, a statement). No MRZ.
    case a4 = "A4"
    /// US Letter (279.4 x 215.9 mm, 11 x 8.5 in): a page of a paper document. No MRZ.
    case letter = "LETTER"

    /// The identity document sizes (what the finder looks for unless told to look for pages).
    public static let identity: Set<DocumentClass> = [.td1, .td2, .td3]
    /// The page sizes.
    public static let pages: Set<DocumentClass> = [.a4, .letter]

    /// Whether this is a page of print rather than an identity document.
    public var isPage: Bool { Self.pages.contains(self) }

    /// Long side and short side in millimetres.
    public var size: (width: Double, height: Double) {
        switch self {
        case .td1: (85.60, 53.98)
        case .td2: (105, 74)
        case .td3: (125, 88)
        case .a4: (297, 210)
        case .letter: (279.4, 215.9)
        }
    }

    public var aspectRatio: Double { size.width / size.height }

    /// The resolution of an identity document's crop: 10 pixels a millimetre, enough for
    /// OCR-B at 2.54 mm a character.
    public static let cropPixelsPerMillimetre = 10.0
    /// The resolution of a page's crop: 7 pixels a millimetre (178 dpi), enough to read 8 pt
    /// print, at about 3 megapixels (A4 2079 x 1470) rather than 6 at the identity resolution.
    public static let pageCropPixelsPerMillimetre = 7.0

    /// The resolution of this class's crop.
    public var cropResolution: Double { isPage ? Self.pageCropPixelsPerMillimetre : Self.cropPixelsPerMillimetre }

    /// The size of the perspective-corrected image at `pixelsPerMillimetre` (this class's
    /// crop resolution by default), long side first.
    public func cropSize(pixelsPerMillimetre: Double? = nil) -> (width: Int, height: Int) {
        let resolution = pixelsPerMillimetre ?? cropResolution
        return (Int((size.width * resolution).rounded()), Int((size.height * resolution).rounded()))
    }

    /// The MRZ's lines and characters per line; nil for a page.
    public var mrzShape: (lines: Int, characters: Int)? {
        switch self {
        case .td1: (3, 30)
        case .td2: (2, 36)
        case .td3: (2, 44)
        case .a4, .letter: nil
        }
    }

    /// Whether a side of this class can carry an MRZ.
    public var hasMRZ: Bool { mrzShape != nil }

    /// The MRZ zone as fractions of the page (x, y, width, height, from the top-left): the
    /// bottom 23.2 mm of an ID-2/ID-3 page and 17.9 mm of a card's back (Doc 9303 Parts 4-5);
    /// empty for a page of print.
    public var mrzZone: (x: Double, y: Double, width: Double, height: Double) {
        guard hasMRZ else { return (0, 0, 0, 0) }
        let height = self == .td1 ? 17.9 : 23.2
        return (0, 1 - height / size.height, 1, height / size.height)
    }

    /// Where the portrait usually is on the side with the photo (the left part of the page
    /// above the MRZ zone, Doc 9303 Part 3's zone V); empty for a page of print.
    public var photoZone: (x: Double, y: Double, width: Double, height: Double) {
        switch self {
        case .td1: (0.03, 0.18, 0.33, 0.75)
        case .td2, .td3: (0.03, 0.15, 0.32, 0.55)
        case .a4, .letter: (0, 0, 0, 0)
        }
    }
}
