import Backend
import Capture
import Foundation

extension CaptureEvidence {
    /// What the backend calls this evidence, and the body uploaded for it; nil when the body
    /// cannot be encoded.
    var upload: (classifier: PartClassifier, body: Data)? {
        switch self {
        case .frontWithFlash(let jpeg): (.frontWithFlash, Data(jpeg))
        case .mrz(let lines): (try? JSONEncoder().encode(MrzData(lines: lines))).map { (.mrz, $0) }
        case .barcode(let format, let bytes): (try? JSONEncoder().encode(BarcodeData(format: format.rawValue, bytes: bytes))).map { (.barcode, $0) }
        case .fullFrame(let side, let jpeg): (side == .back ? .backFullFrame : .frontFullFrame, Data(jpeg))
        case .livenessFrame(let index, let jpeg): PartClassifier.liveness(index).map { ($0, Data(jpeg)) }
        case .liveness(let evidence): (try? JSONEncoder().encode(evidence)).map { (.livenessRecord, $0) }
        }
    }
}
