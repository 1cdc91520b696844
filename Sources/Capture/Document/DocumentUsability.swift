import ScanFlow
import Vision

/// The station's own Instant Feedback on a document image it took: the seeds' reject
/// reasons for what the pixels show, before anything is uploaded.
enum DocumentUsability {
    /// The most of the MRZ or photo zone glare may cover in the image kept.
    static let maximumGlare = 0.10

    /// Why the image is unusable, if it is.
    /// - Parameters:
    ///   - observation: the document in the frame taken (nil: not looked at, a manual shot
    ///     is judged on what is found in it).
    ///   - quality: the region's sharpness and glare in the image kept.
    ///   - expectsMRZ: whether this side carries an MRZ (a passport page, a card's back).
    ///   - mrzSeen: whether the frames before it showed one.
    ///   - sharpness: the guidance's sharpness thresholds (an ID document's, a page's).
    ///   - page: whether the image is a page of print (judged by its directional sharpness).
    static func rejectReason(
        observation: DocumentObservation?, quality: DocumentQuality?, expectsMRZ: Bool, mrzSeen: Bool, sharpness: DocumentGuidance.Settings,
        page: Bool = false
    ) -> RejectReason? {
        if let observation {
            guard let document = observation.document else { return .noDocument }
            if !document.whole { return .missingPartDocument }
        }
        if let quality {
            if !DocumentGuidance.isSharp(quality, page: page, settings: sharpness) { return .blurry }
            if max(quality.glareOverMRZ, quality.glareOverPhoto) > maximumGlare { return .glare }
        }
        if expectsMRZ && !mrzSeen { return .notReadable }
        return nil
    }
}
