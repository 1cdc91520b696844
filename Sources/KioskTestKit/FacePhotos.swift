import Foundation
public import Imaging
public import Vision

/// Real face photographs that Debian packages ship (docs/vision-models.md), with landmarks
/// annotated by hand on the original pixels, and the face models of `make vision-models`.
public enum FacePhotos {
    /// Eileen Collins, NASA portrait (public domain), in python3-skimage.
    public static let astronautPath = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png"
    /// Grace Hopper, US Navy portrait (public domain), in python-matplotlib-data.
    public static let hopperPath = "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg"
    /// A photograph with no face (skimage's coffee cup).
    public static let coffeePath = "/usr/lib/python3/dist-packages/skimage/data/coffee.png"

    public static var available: Bool { [astronautPath, hopperPath, coffeePath].allSatisfy { FileManager.default.fileExists(atPath: $0) } }
    public static let missing = "python3-skimage and python-matplotlib-data (scripts/setup-debian.sh)"

    /// The astronaut's landmarks, read by eye from the 512x512 original at 6x.
    public static let astronautLandmarks = FaceLandmarks(
        leftEyeOuter: Point(x: 191, y: 102), leftEyeInner: Point(x: 209, y: 102),
        rightEyeInner: Point(x: 236, y: 103), rightEyeOuter: Point(x: 254, y: 102), noseBase: Point(x: 222, y: 133))

    public static func rgb(_ path: String) throws -> RGBImage {
        try ImageFile.decodeRGB([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    public static var astronaut: RGBImage { get throws { try rgb(astronautPath) } }
    public static var hopper: RGBImage { get throws { try rgb(hopperPath) } }

    /// The face models, loaded once; nil when `make vision-models` has not installed them.
    public static let models: FaceModels? = try? FaceModels(folder: VisionCrops.models)
    public static let modelsMissing = "the face models in .cache/models (make vision-models)"
}
