/// What one frame shows of a document: where it is, what it is, how it lies, and how
/// usable its region is.
public struct DocumentObservation: Hashable, Sendable {
    /// The frame's size.
    public var width: Int
    public var height: Int
    /// The document found, if any.
    public var document: Found?
    /// Document-like quadrilaterals found besides it (a second document, a phone).
    public var others: Int
    /// With no document found: a solid, straight-sided region cut by the frame's edge,
    /// likely a document only partly in view (its shape cannot be told, so it is no document).
    public var cutOff: Bool

    public init(width: Int, height: Int, document: Found?, others: Int = 0, cutOff: Bool = false) {
        self.width = width
        self.height = height
        self.document = document
        self.others = others
        self.cutOff = cutOff
    }

    /// A document in the frame.
    public struct Found: Hashable, Sendable {
        public var quadrilateral: Quadrilateral
        /// Its class by shape. ID-2 and ID-3 pages share an aspect ratio: `.td3` stands for
        /// both until the MRZ's line length (or a calibrated scale) tells them apart.
        public var documentClass: DocumentClass
        /// Whether all of it is in the frame (no corner within the edge margin, the blob
        /// not reaching the border).
        public var whole: Bool
        /// The part of the frame it covers, 0…1.
        public var areaFraction: Double
        /// Its centre's distance from the frame's centre, as a part of the frame's width.
        public var centreOffset: Double
        public var pose: DocumentPose
        /// Quality of the document's own region (not the frame's), when it was measured.
        public var quality: DocumentQuality?

        public init(
            quadrilateral: Quadrilateral, documentClass: DocumentClass, whole: Bool, areaFraction: Double,
            centreOffset: Double, pose: DocumentPose, quality: DocumentQuality?
        ) {
            self.quadrilateral = quadrilateral
            self.documentClass = documentClass
            self.whole = whole
            self.areaFraction = areaFraction
            self.centreOffset = centreOffset
            self.pose = pose
            self.quality = quality
        }
    }
}

/// Sharpness and glare measured on the perspective-corrected document region.
public struct DocumentQuality: Hashable, Sendable {
    /// Variance of the Laplacian of the corrected region at ``DocumentQuality/pixelsPerMillimetre``
    /// (comparable between frames whatever the document's distance).
    public var sharpness: Double
    /// The part of the region that is specular glare (luma at or above the glare level), 0…1.
    public var glare: Double
    /// The part of the MRZ zone under glare.
    public var glareOverMRZ: Double
    /// The part of the photo zone under glare.
    public var glareOverPhoto: Double
    /// Sharpness by direction (motion blurs the one it moves along); nil where not measured.
    public var directional: DirectionalSharpness?

    /// The resolution quality is measured at.
    public static let pixelsPerMillimetre = 4.0
    /// Luma at and above which a pixel counts as glare.
    public static let glareLevel: UInt8 = 250

    public init(sharpness: Double, glare: Double, glareOverMRZ: Double, glareOverPhoto: Double, directional: DirectionalSharpness? = nil) {
        self.sharpness = sharpness
        self.glare = glare
        self.glareOverMRZ = glareOverMRZ
        self.glareOverPhoto = glareOverPhoto
        self.directional = directional
    }
}
