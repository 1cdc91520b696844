package import MRTD

/// The chip's half of Chip Authentication and its keys, for the virtual passport and tests.
extension ChipAuthentication {
    /// A chip key for tests and the virtual passport: (private scalar, SubjectPublicKeyInfo DER).
    package static func chipKey(parameterID: Int, curve: OID) throws(MRTDError) -> (privateKey: [UInt8], subjectPublicKeyInfo: [UInt8]) {
        let scalar = try value(LibCrypto.ecRandomScalar(parameterID: parameterID))
        let point = try value(LibCrypto.ecMultiply(parameterID: parameterID, scalar: scalar, point: nil))
        let spki = DER.sequence(DER.sequence(DER.oid(DataGroup15.ecPublicKey), DER.oid(curve)), DER.tlv(0x03, [0x00] + point))
        return (scalar, spki)
    }

    /// A chip key whose SubjectPublicKeyInfo gives the curve as explicit ECParameters, as
    /// many issuing states encode DG14 (test documents).
    package static func chipKeyWithExplicitParameters(parameterID: Int) throws(MRTDError) -> (privateKey: [UInt8], subjectPublicKeyInfo: [UInt8]) {
        let scalar = try value(LibCrypto.ecRandomScalar(parameterID: parameterID))
        let point = try value(LibCrypto.ecMultiply(parameterID: parameterID, scalar: scalar, point: nil))
        let parameters = try value(LibCrypto.ecExplicitParameters(parameterID: parameterID))
        let algorithm = DER.sequence(DER.oid(DataGroup15.ecPublicKey), parameters)
        return (scalar, DER.sequence(algorithm, DER.tlv(0x03, [0x00] + point)))
    }

    /// The chip's half: from the terminal's ephemeral key, the session that follows the answer.
    package static func chipSession(cipher: SecureMessagingCipher, parameterID: Int, privateKey: [UInt8], terminalKey: [UInt8]) -> SecureMessaging? {
        guard case .success(let point) = LibCrypto.ecMultiply(parameterID: parameterID, scalar: privateKey, point: terminalKey) else { return nil }
        return try? sessionKeys(cipher: cipher, secretPoint: point)
    }
}
