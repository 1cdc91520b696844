import Backend
import Foundation
import Imaging
import Vision

/// The thresholds of the image checks. Sharpness depends on the camera, the optics and
/// the resolution, so these are configuration (`idkiosk-backend serve --min-luma …`).
public struct ImageQualityThresholds: Sendable, Hashable {
    /// Mean 8-bit luma below this is too dark.
    public var minimumMeanLuma: Double
    /// Mean 8-bit luma above this is washed out.
    public var maximumMeanLuma: Double
    /// The same for a page of print (PAGE_n): mostly white paper, so a sharp, well exposed
    /// page has a mean of 220-245; only above this is its print washed out.
    public var maximumPageMeanLuma: Double
    /// Variance of the Laplacian below this is blurred (``LumaStatistics/laplacianVariance``).
    public var minimumSharpness: Double
    /// Images with more pixels are refused before decoding: a small JPEG may declare a huge size.
    public var maximumPixels: Int

    public init(
        minimumMeanLuma: Double = 50, maximumMeanLuma: Double = 220, maximumPageMeanLuma: Double = 250, minimumSharpness: Double = 50,
        maximumPixels: Int = 40_000_000
    ) {
        self.minimumMeanLuma = minimumMeanLuma
        self.maximumMeanLuma = maximumMeanLuma
        self.maximumPageMeanLuma = maximumPageMeanLuma
        self.minimumSharpness = minimumSharpness
        self.maximumPixels = maximumPixels
    }
}

/// Brightness and sharpness of one uploaded JPEG, decoded to luma with the Imaging
/// module's TurboJPEG codec and measured by Vision (the station measures its frames with
/// the same code).
enum ImageQuality {
    enum Assessment: Equatable {
        /// Decoded and measured.
        case measured(LumaStatistics)
        /// Not measured, with the reason code: `TOO_MANY_PIXELS`, `JPEG_UNDECODABLE`.
        case notMeasured(String)
    }

    /// Decodes `jpeg` to luma and measures it.
    static func assess(_ jpeg: Data, width: Int, height: Int, thresholds: ImageQualityThresholds) -> Assessment {
        guard width * height <= thresholds.maximumPixels else { return .notMeasured("TOO_MANY_PIXELS") }
        let codec = JPEGCodec(fastDecode: true)
        // Allocated at the declared size: the codec then reuses the storage as it is.
        var image = LumaImage(width: width, height: height)
        do {
            try codec.decodeLuma([UInt8](jpeg), into: &image)
        } catch {
            return .notMeasured("JPEG_UNDECODABLE")
        }
        return .measured(LumaStatistics(image))
    }

    /// PASSED, or REJECTED with `TOO_DARK` / `TOO_BRIGHT`.
    static func brightness(_ statistics: LumaStatistics, _ thresholds: ImageQualityThresholds) -> (Decision, String?) {
        if statistics.meanLuma < thresholds.minimumMeanLuma { return (.REJECTED, "TOO_DARK") }
        if statistics.meanLuma > thresholds.maximumMeanLuma { return (.REJECTED, "TOO_BRIGHT") }
        return (.PASSED, nil)
    }

    /// PASSED, or REJECTED with `BLURRED`.
    static func sharpness(_ statistics: LumaStatistics, _ thresholds: ImageQualityThresholds) -> (Decision, String?) {
        statistics.laplacianVariance < thresholds.minimumSharpness ? (.REJECTED, "BLURRED") : (.PASSED, nil)
    }
}
