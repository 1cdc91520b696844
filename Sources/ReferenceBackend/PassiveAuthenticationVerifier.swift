public import Backend
public import Foundation

/// Server-side passive authentication (ICAO 9303-11 §5.1): the uploaded EF.SOD's
/// signature, its document signer's chain to a CSCA the backend trusts, and the hashes
/// of the uploaded data groups. A station's own "PA passed" is only reported, never
/// believed: the backend checks again with its own trust store.
public protocol PassiveAuthenticationVerifier: Sendable {
    /// Verifies the data groups a station read from a chip.
    /// - Parameters:
    ///   - dataGroups: raw data groups keyed `DG1`…`DG16`, `SOD` (and `COM`, ignored).
    ///   - time: the verification time (the backend's clock), for the document signer's validity.
    /// - Returns: PASSED, REJECTED or NOT_EXECUTED with the reason code of the result.
    func verify(dataGroups: [String: Data], at time: Date) -> (decision: Decision, reason: String?)
}

/// No CSCA trust store configured: passive authentication is not executed, and said so.
public struct NoTrustStore: PassiveAuthenticationVerifier {
    public init() {}
    public func verify(dataGroups: [String: Data], at time: Date) -> (decision: Decision, reason: String?) {
        (.NOT_EXECUTED, "NO_CSCA_TRUST_STORE")
    }
}
