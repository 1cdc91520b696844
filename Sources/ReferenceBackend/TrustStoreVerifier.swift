public import Backend
public import Foundation
public import MRTD

/// Passive authentication with MRTD's ``PassiveAuthentication/verify(files:trustStore:at:)``
/// against the backend's own CSCA certificates (`idkiosk-backend serve --csca DIR`).
///
/// The result names the first check that failed, most fundamental first, so an operator
/// sees why without the document: `SOD_MISSING`, `SOD_MALFORMED`, `CSCA_NOT_TRUSTED`,
/// `SOD_SIGNATURE_INVALID`, `SOD_SIGNED_ATTRIBUTES_INVALID`, `DOCUMENT_SIGNER_NOT_VALID`,
/// `DG<n>_HASH_MISMATCH` (the data group differs from, or is missing in, EF.SOD).
/// A check MRTD cannot perform (an algorithm it lacks, no signer certificate in EF.SOD)
/// is NOT_EXECUTED: `ALGORITHM_NOT_SUPPORTED`, `NO_DOCUMENT_SIGNER_CERTIFICATE`.
public struct TrustStoreVerifier: PassiveAuthenticationVerifier {
    public let trustStore: TrustStore

    public init(trustStore: TrustStore) {
        self.trustStore = trustStore
    }

    public func verify(dataGroups: [String: Data], at time: Date) -> (decision: Decision, reason: String?) {
        guard !trustStore.certificates.isEmpty else { return (.NOT_EXECUTED, "NO_CSCA_TRUST_STORE") }
        guard dataGroups["SOD"] != nil else { return (.REJECTED, "SOD_MISSING") }
        var files: [LDSFile: [UInt8]] = [:]
        for (key, bytes) in dataGroups {
            guard let file = Self.file(named: key) else { continue }
            files[file] = [UInt8](bytes)
        }
        let result = PassiveAuthentication.verify(files: files, trustStore: trustStore, at: Int64(time.timeIntervalSince1970.rounded(.down)))
        switch result.outcome {
        case .passed:
            return (.PASSED, nil)
        case .failed:
            return (.REJECTED, Self.failureReason(result))
        case .notSupported:
            return (.NOT_EXECUTED, result.chain.outcome == .notSupported ? "NO_DOCUMENT_SIGNER_CERTIFICATE" : "ALGORITHM_NOT_SUPPORTED")
        }
    }

    /// The reason code of the first failed check, most fundamental first.
    static func failureReason(_ result: PassiveAuthentication.Result) -> String {
        // A missing or undecodable EF.SOD fails every check under the one name "EF.SOD".
        if result.dataGroupHashes.isEmpty, result.chain.name == "EF.SOD" { return "SOD_MALFORMED" }
        let ordered: [(VerificationCheck, String)] = [
            (result.chain, "CSCA_NOT_TRUSTED"),
            (result.signature, "SOD_SIGNATURE_INVALID"),
            (result.signedAttributes, "SOD_SIGNED_ATTRIBUTES_INVALID"),
            (result.validity, "DOCUMENT_SIGNER_NOT_VALID"),
        ]
        if let failed = ordered.first(where: { $0.0.outcome == .failed }) { return failed.1 }
        if let number = result.dataGroupHashes.keys.sorted().first(where: { result.dataGroupHashes[$0]?.outcome == .failed }) {
            return "DG\(number)_HASH_MISMATCH"
        }
        return "PASSIVE_AUTHENTICATION_FAILED"
    }

    /// The LDS file of an upload key: `DG1`…`DG16`, `SOD`; `nil` for `COM` and unknown keys.
    static func file(named key: String) -> LDSFile? {
        if key == "SOD" { return .sod }
        guard key.hasPrefix("DG"), let number = Int(key.dropFirst(2)) else { return nil }
        return LDSFile.dataGroup(number)
    }
}
