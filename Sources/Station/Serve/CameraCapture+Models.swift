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

    /// The face models as `/health` shows them (one entry for the pair: both are needed).
    var faceModelStatus: ModelStatus {
        let name = "face models (\(FaceModels.landmarksFileName), \(FaceModels.embeddingFileName))"
        switch faceModels {
        case .none: return ModelStatus(name: name, available: false, detail: "vision.models is not set")
        case .success(let models):
            return ModelStatus(name: name, available: true, loadMilliseconds: models.cost.milliseconds, memoryBytes: models.cost.fileBytes)
        case .failure(let error): return ModelStatus(name: name, available: false, detail: "\(error.code): \(error)")
        }
    }
}
