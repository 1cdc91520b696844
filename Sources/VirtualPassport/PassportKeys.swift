package import MRTD

/// The keys a test passport proves itself with: Active Authentication (DG15 and the
/// private key for INTERNAL AUTHENTICATE) and Chip Authentication (DG14 and the static key),
/// made at run time. A cloned chip copies the data groups but cannot copy the private keys:
/// ``cloned(activeAuthentication:chipAuthentication:)`` gives the chip other private keys
/// than its DG15 and DG14 publish, so the checks fail as they fail for a clone.
package struct PassportKeys: Sendable {
    /// DG14: the ChipAuthenticationInfo and its public key; nil without Chip Authentication.
    package var dataGroup14: [UInt8]?
    /// DG15: the Active Authentication public key; nil without Active Authentication.
    package var dataGroup15: [UInt8]?
    /// What the chip holds, for INTERNAL AUTHENTICATE.
    package var activeAuthenticationKey: [UInt8]?
    /// What the chip holds, for Chip Authentication.
    package var chipAuthenticationKey: VirtualPassport.ChipAuthenticationKey?

    /// A chip without Active or Chip Authentication.
    package init() {}

    /// brainpoolP256r1, the curve of the Chip Authentication key.
    static let parameterID = 13

    /// New keys for the checks asked for.
    /// - Parameters:
    ///   - activeAuthentication: an RSA 2048 key in DG15 (ISO/IEC 9796-2 signatures).
    ///   - chipAuthentication: an ECDH key on brainpoolP256r1 in DG14 (AES-128).
    /// - Throws: ``MRTDError`` when libcrypto cannot make a key.
    package static func make(activeAuthentication: Bool, chipAuthentication: Bool) throws(MRTDError) -> PassportKeys {
        var keys = PassportKeys()
        if activeAuthentication {
            let key = try TestIssuer.activeAuthenticationKey(.rsa2048)
            keys.dataGroup15 = LDSEncoder.dataGroup15(subjectPublicKeyInfo: key.publicKey)
            keys.activeAuthenticationKey = key.privateKey
        }
        if chipAuthentication {
            let key = try ChipAuthentication.chipKey(parameterID: parameterID, curve: "1.3.36.3.3.2.8.1.1.7")
            keys.dataGroup14 = LDSEncoder.dataGroup14(securityInfos: [
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1)),  // id-CA-ECDH-AES-CBC-CMAC-128, version 1
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), key.subjectPublicKeyInfo),  // id-PK-ECDH
            ])
            keys.chipAuthenticationKey = .init(privateKey: key.privateKey, parameterID: parameterID, cipher: .aes128)
        }
        return keys
    }

    /// The same data groups on a chip that holds other private keys: Active Authentication
    /// (when `activeAuthentication`) and Chip Authentication (when `chipAuthentication`) fail.
    /// - Throws: ``MRTDError`` when libcrypto cannot make a key.
    package func cloned(activeAuthentication: Bool = true, chipAuthentication: Bool = true) throws(MRTDError) -> PassportKeys {
        var clone = self
        if activeAuthentication, self.activeAuthenticationKey != nil {
            clone.activeAuthenticationKey = try TestIssuer.activeAuthenticationKey(.rsa2048).privateKey
        }
        if chipAuthentication, let original = chipAuthenticationKey {
            let other = try ChipAuthentication.chipKey(parameterID: Self.parameterID, curve: "1.3.36.3.3.2.8.1.1.7")
            clone.chipAuthenticationKey = .init(privateKey: other.privateKey, parameterID: original.parameterID, cipher: original.cipher)
        }
        return clone
    }
}
