import Capture
import Vision

extension CameraCapture {
    /// The MRZ model as `/health` shows it.
    var mrzModelStatus: ModelStatus {
        let milliseconds = Double(mrzModelLoadTime.components.seconds) * 1000 + Double(mrzModelLoadTime.components.attoseconds) / 1e15
        switch mrzReader {
        case .none: return ModelStatus(name: MRZModel.fileName, available: false, detail: "vision.models is not set")
        case .success: return ModelStatus(name: MRZModel.fileName, available: true, loadMilliseconds: milliseconds)
        case .failure(let error): return ModelStatus(name: MRZModel.fileName, available: false, detail: "\(error.code): \(error)")
        }
    }
}
