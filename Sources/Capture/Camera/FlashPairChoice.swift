import Vision

/// Which half of a flash/no-flash pair is the image of the front: the one whose glare
/// leaves the MRZ and the photo readable. The lit half is always uploaded as the flash
/// image too; the unlit one is the front unless glare (a lamp, a window) covers its MRZ or
/// photo and the lit one's does not.
enum FlashPairChoice {
    /// The most of the MRZ or photo zone glare may cover (a part, 0…1).
    static let maximumGlare = 0.02

    static func prefersLit(unlit: DocumentQuality?, lit: DocumentQuality?) -> Bool {
        guard let unlit, let lit else { return false }
        func covered(_ quality: DocumentQuality) -> Bool {
            max(quality.glareOverMRZ, quality.glareOverPhoto) > maximumGlare
        }
        return covered(unlit) && !covered(lit)
    }
}
