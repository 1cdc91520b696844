public import Backend
public import Foundation

/// The seam for server-side passive authentication (ICAO 9303-11: the SOD's signature
/// against a CSCA trust store and the data group hashes). The MRTD module's SOD
/// verification is being written elsewhere; until it lands the reference backend uses
/// ``NoTrustStore`` and says NOT_EXECUTED.
public protocol PassiveAuthenticationVerifier: Sendable {
    /// - Parameter dataGroups: raw data groups keyed `DG1`…, `SOD`.
    func verify(dataGroups: [String: Data]) -> (decision: Decision, reason: String)
}

/// No CSCA trust store configured: passive authentication is not executed.
public struct NoTrustStore: PassiveAuthenticationVerifier {
    public init() {}
    public func verify(dataGroups: [String: Data]) -> (decision: Decision, reason: String) {
        (.NOT_EXECUTED, "NO_CSCA_TRUST_STORE")
    }
}
