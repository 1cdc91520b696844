public import Imaging
import Synchronization

/// Finds faces in frames: dlib's HOG frontal face detector (no model file), then the five
/// landmarks of each face when ``FaceModels`` are given.
///
/// Frames wider than ``Settings/detectionWidth`` are halved (2x2 means) until they fit
/// before detection: the detector finds faces from about 80 pixels wide in the image it
/// is given, so at the default 640 a 1280x720 frame shows faces from 160 pixels, an eighth
/// of its width; a person that far from a kiosk is told to come closer anyway. Landmarks
/// and quality are measured on the full frame.
public final class FaceDetector: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Frames are halved until they are at most this wide for detection.
        public var detectionWidth = 640
        /// Added to the detector's own threshold: negative finds more faces, and more
        /// things that are not. dlib's detector gives margins under 0.2 to badges, prints
        /// on clothes and folds of fabric as often as to faces; a face in front of the
        /// camera, even turned 25 degrees in the image, scores above 0.4.
        public var threshold = 0.2
        /// Faces covering less than this part of a larger one are dropped as duplicates.
        public var overlap = 0.5
        /// Images narrower than this (a chip's portrait) are doubled for detection, so faces
        /// from 40 pixels wide are found in them.
        public var doubleBelowWidth = 400

        public init() {}
    }

    public let settings: Settings
    public let models: FaceModels?
    private let detector: Mutex<OpaquePointer>

    public init(settings: Settings = Settings(), models: FaceModels? = nil) throws(VisionError) {
        guard settings.detectionWidth >= 80 else {
            throw VisionError(kind: .invalidArgument, message: "detectionWidth must be at least 80")
        }
        self.settings = settings
        self.models = models
        detector = Mutex(try Dlib.makeDetector().get())
    }

    deinit {
        detector.withLock { Dlib.destroyDetector($0) }
    }

    /// The faces in `image`, best first.
    public func observe(_ image: LumaImage) throws(VisionError) -> FaceObservation {
        guard image.width > 0, image.height > 0, image.pixels.count >= image.width * image.height else {
            throw VisionError(kind: .invalidArgument, message: "the image is empty or shorter than its size")
        }
        var small = image
        var factor = 1.0
        while small.width > settings.detectionWidth, small.width >= 2, small.height >= 2 {
            small = small.halved()
            factor *= 2
        }
        let found = try detector.withLock { detector throws(VisionError) in
            try Dlib.detect(detector, in: small, upsample: small.width < settings.doubleBelowWidth ? 1 : 0, threshold: settings.threshold).get()
        }
        var faces: [FaceObservation.Face] = []
        for candidate in found {
            let box = FaceBox(
                left: Double(candidate.left), top: Double(candidate.top), right: Double(candidate.right), bottom: Double(candidate.bottom)
            ).scaled(by: factor)
            guard !faces.contains(where: { box.covered(by: $0.box) > settings.overlap }) else { continue }
            let landmarks = try models?.landmarks(in: image, box: box)
            faces.append(FaceObservation.Face(
                box: box, confidence: Double(candidate.confidence), landmarks: landmarks, quality: Self.quality(of: image, box: box)))
        }
        return FaceObservation(width: image.width, height: image.height, faces: faces)
    }

    /// Brightness and sharpness inside the box, brightness of a band around it.
    static func quality(of image: LumaImage, box: FaceBox) -> FaceQuality {
        let inner = box.clipped(width: image.width, height: image.height)
        let face = LumaStatistics(image.cropped(inner))
        let margin = box.width / 2
        let outer = FaceBox(left: box.left - margin, top: box.top - margin, right: box.right + margin, bottom: box.bottom + margin)
            .clipped(width: image.width, height: image.height)
        let whole = LumaStatistics(image.cropped(outer)).meanLuma * Double(outer.area)
        let band = Double(outer.area - inner.area)
        let surround = band > 0 ? (whole - face.meanLuma * Double(inner.area)) / band : face.meanLuma
        let isWhole = box.left >= 0 && box.top >= 0 && box.right <= Double(image.width) && box.bottom <= Double(image.height)
        return FaceQuality(brightness: face.meanLuma, surround: surround, sharpness: face.laplacianVariance, whole: isWhole)
    }
}

/// A whole-pixel rectangle inside an image.
struct PixelRect: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var area: Int { width * height }
}

extension FaceBox {
    /// The box rounded to whole pixels and clipped to a `width` x `height` image.
    func clipped(width: Int, height: Int) -> PixelRect {
        let x0 = min(max(Int(left.rounded()), 0), width), y0 = min(max(Int(top.rounded()), 0), height)
        let x1 = min(max(Int(right.rounded()), x0), width), y1 = min(max(Int(bottom.rounded()), y0), height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension LumaImage {
    /// Half the size, each pixel the mean of a 2x2 block (a last odd row or column is dropped).
    func halved() -> LumaImage {
        let w = width / 2, h = height / 2
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    let a = 2 * y * width, b = a + width
                    for x in 0..<w {
                        let sum = Int(p[a + 2 * x]) + Int(p[a + 2 * x + 1]) + Int(p[b + 2 * x]) + Int(p[b + 2 * x + 1])
                        o[y * w + x] = UInt8((sum + 2) / 4)
                    }
                }
            }
        }
        return LumaImage(width: w, height: h, pixels: out)
    }

    /// The pixels of `rect` as an image of their own.
    func cropped(_ rect: PixelRect) -> LumaImage {
        guard rect.width > 0, rect.height > 0 else { return LumaImage() }
        var out = [UInt8]()
        out.reserveCapacity(rect.area)
        for y in rect.y..<(rect.y + rect.height) {
            out.append(contentsOf: pixels[(y * width + rect.x)..<(y * width + rect.x + rect.width)])
        }
        return LumaImage(width: rect.width, height: rect.height, pixels: out)
    }
}
