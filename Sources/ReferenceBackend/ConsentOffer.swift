public import Backend

/// Which consent items the reference backend asks a journey for (`ConsentItem`, docs/backend-api.yaml):
/// a `PASSIVE` notice (shown; going on accepts it), an `ACTIVE` item (the person accepts it
/// with a tap of their own), both, or none. A station must handle every combination.
public enum ConsentOffer: String, Sendable, CaseIterable {
    case passive
    case active
    case both
    case none

    /// The items of an answer; `baseURL` is where their texts are published.
    public func items(baseURL: String) -> [ConsentItemResponse] {
        let notice = ConsentItemResponse(
            id: "privacy", type: "PASSIVE", text: "By continuing you agree to the processing of your identity document.",
            url: "\(baseURL)/privacy")
        let biometrics = ConsentItemResponse(
            id: "biometrics", type: "ACTIVE",
            text: "I agree that a picture of my face is taken and compared with the photo of my document.",
            url: "\(baseURL)/privacy#biometrics")
        switch self {
        case .passive: return [notice]
        case .active: return [biometrics]
        case .both: return [notice, biometrics]
        case .none: return []
        }
    }
}
