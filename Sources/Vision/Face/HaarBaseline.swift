public import Imaging
import Synchronization

/// The field's usual face detector, for comparison only (the benchmark's baseline): OpenCV's
/// Haar cascade `haarcascade_frontalface_default.xml` from Debian's opencv-data, scale step
/// 1.1, 4 neighbours. It gives boxes, no landmarks.
public final class HaarBaseline: Sendable {
    public static let defaultPath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
    private let cascade: Mutex<OpaquePointer>

    public init(path: String = HaarBaseline.defaultPath) throws(VisionError) {
        cascade = Mutex(try OpenCV.loadCascade(path).get())
    }

    deinit {
        cascade.withLock { OpenCV.destroyCascade($0) }
    }

    /// Faces from `minimumSize` pixels wide.
    public func faces(in image: LumaImage, minimumSize: Int = 40) throws(VisionError) -> [FaceBox] {
        try cascade.withLock { cascade throws(VisionError) in try OpenCV.cascadeFaces(cascade, in: image, minimumSize: minimumSize).get() }
    }
}
