/// Why Instant Feedback rejected an image (seeds: `Jumio.RejectReason`), with the seeds' codes.
public enum RejectReason: Int, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case blackWhiteCopy = 102
    case colorPhotocopy = 103
    case digitalCopy = 104
    case notReadable = 200
    case noDocument = 201
    case missingBack = 206
    case missingFront = 214
    case unsupportedDocument = 401
    case blurry = 2001
    case missingPartDocument = 2003
    case hiddenPartDocument = 2004
    case damagedDocument = 2005
    case glare = 2006

    /// The code as the seeds print it.
    public var code: Int { rawValue }

    /// The seeds' message for the code.
    public var message: String {
        switch self {
        case .blackWhiteCopy: "BLACK_WHITE_COPY"
        case .colorPhotocopy: "COLOR_PHOTOCOPY"
        case .digitalCopy: "DIGITAL_COPY"
        case .notReadable: "NOT_READABLE"
        case .noDocument: "NO_DOC"
        case .missingBack: "MISSING_BACK"
        case .missingFront: "MISSING_FRONT"
        case .unsupportedDocument: "UNSUPPORTED_DOCUMENT"
        case .blurry: "BLURRY"
        case .missingPartDocument: "MISSING_PART_DOC"
        case .hiddenPartDocument: "HIDDEN_PART_DOC"
        case .damagedDocument: "DAMAGED_DOCUMENT"
        case .glare: "GLARE"
        }
    }

    public var description: String { "\(code) \(message)" }
}
