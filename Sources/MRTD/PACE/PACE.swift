public import APDU

/// PACE (ICAO Doc 9303 Part 11 §4.4, BSI TR-03110): password-authenticated key agreement
/// that replaces BAC where EF.CardAccess offers it.
///
/// This implements Generic Mapping and Integrated Mapping over ECDH on the standardized
/// NIST and brainpool curves (domain parameters 8–18; Integrated Mapping not on secp224r1)
/// and over DH in the RFC 5114 groups (0–2), with 3DES and AES-128/192/256 session keys,
/// and Chip Authentication Mapping (ECDH-CAM, AES), on libcrypto through the shim.
/// ``Parameters/init(protocol:parameterID:)`` refuses anything else, so a reader falls back to BAC.
public enum PACE {
    /// The shared password.
    public enum Password: Sendable {
        /// The MRZ key: K = SHA-1(MRZ information).
        case mrz(MRZKey)
        /// The card access number printed on the document.
        case can(CardAccessNumber)

        /// The password reference of MSE:Set AT (DO'83').
        package var reference: UInt8 {
            if case .mrz = self { 0x01 } else { 0x02 }
        }

        package func bytes() throws(MRTDError) -> [UInt8] {
            switch self {
            case .mrz(let key):
                switch LibCrypto.digest(.sha1, key.mrzInformation) {
                case .success(let hash): return hash
                case .failure(let error): throw .crypto(error)
                }
            case .can(let number): return number.passwordBytes
            }
        }
    }

    /// How the nonce becomes the generator of the key agreement (Doc 9303 Part 11 §4.4.3.3).
    public enum Mapping: Hashable, Sendable {
        /// Generic Mapping: a Diffie-Hellman exchange, then G' = s × G + H (or g^s · h).
        case generic
        /// Integrated Mapping: G' from the pseudo-random function R(s, t) of both nonces.
        case integrated
        /// Chip Authentication Mapping: Generic Mapping plus the chip's proof of its static key.
        case chipAuthentication
    }

    /// A PACE protocol this implementation runs, with its group, mapping and cipher.
    public struct Parameters: Hashable, Sendable, CustomStringConvertible {
        /// The PACEInfo protocol OID, for example id-PACE-ECDH-GM-AES-CBC-CMAC-128.
        public let protocolID: OID
        /// The standardized domain parameter ID (BSI TR-03110 Part 3 Table 4): 0–2 the
        /// RFC 5114 DH groups, 8–18 the NIST and brainpool curves.
        public let parameterID: Int
        public let cipher: SecureMessagingCipher
        public let mapping: Mapping
        package let group: PACEGroup

        /// Whether this is PACE-CAM: Generic Mapping plus the chip's proof of its static key.
        public var chipAuthenticationMapping: Bool { mapping == .chipAuthentication }
        /// Whether the key agreement is finite-field Diffie-Hellman rather than ECDH.
        public var isDiffieHellman: Bool { group.isDiffieHellman }

        /// id-PACE-DH-GM (0.4.0.127.0.7.2.2.4.1).
        public static let dhGenericMapping: OID = "0.4.0.127.0.7.2.2.4.1"
        /// id-PACE-ECDH-GM (0.4.0.127.0.7.2.2.4.2).
        public static let ecdhGenericMapping: OID = "0.4.0.127.0.7.2.2.4.2"
        /// id-PACE-DH-IM (0.4.0.127.0.7.2.2.4.3).
        public static let dhIntegratedMapping: OID = "0.4.0.127.0.7.2.2.4.3"
        /// id-PACE-ECDH-IM (0.4.0.127.0.7.2.2.4.4).
        public static let ecdhIntegratedMapping: OID = "0.4.0.127.0.7.2.2.4.4"
        /// id-PACE-ECDH-CAM (0.4.0.127.0.7.2.2.4.6).
        public static let ecdhChipAuthenticationMapping: OID = "0.4.0.127.0.7.2.2.4.6"

        /// `nil` for protocols or domain parameters not implemented.
        public init?(protocol protocolID: OID, parameterID: Int?) {
            let arcs = protocolID.arcs
            guard let parameterID, protocolID.hasPrefix(OID.pace), arcs.count == OID.pace.arcs.count + 2,
                let group = PACEGroup(parameterID: parameterID)
            else { return nil }
            let kind = arcs[arcs.count - 2]
            switch kind {
            case 1, 2: mapping = .generic
            case 3, 4: mapping = .integrated
            case 6: mapping = .chipAuthentication
            default: return nil
            }
            let dh = kind == 1 || kind == 3
            guard dh == group.isDiffieHellman else { return nil }
            switch arcs.last {
            case 1: cipher = .tripleDES
            case 2: cipher = .aes128
            case 3: cipher = .aes192
            case 4: cipher = .aes256
            default: return nil
            }
            // CAM is defined for AES only (BSI TR-03110 Part 3 §A.1.1.1).
            if mapping == .chipAuthentication && cipher == .tripleDES { return nil }
            // The point encoding of Integrated Mapping needs p = 3 mod 4; secp224r1 has p = 1 mod 4.
            if mapping == .integrated && parameterID == 10 { return nil }
            self.protocolID = protocolID
            self.parameterID = parameterID
            self.group = group
        }

        /// Every PACEInfo of EF.CardAccess this implementation runs, in the chip's order.
        public static func supported(in infos: SecurityInfos) -> [Parameters] {
            infos.infos.compactMap { info in
                if case .pace(let oid, _, let parameterID) = info { Parameters(protocol: oid, parameterID: parameterID) } else { nil }
            }
        }

        /// The PACEInfo of EF.CardAccess to run, by a fixed preference (docs/mrtd.md):
        /// 1. Chip Authentication Mapping, which also proves the chip genuine;
        /// 2. Generic Mapping before Integrated Mapping (every PACE chip runs GM);
        /// 3. elliptic curves before finite-field Diffie-Hellman (shorter APDUs);
        /// 4. the stronger cipher: AES-256, AES-192, AES-128, then 3DES;
        /// 5. the chip's own order (it lists what it prefers first).
        public static func choose(from infos: SecurityInfos) -> Parameters? {
            let offered = supported(in: infos)
            return offered.indices.min { a, b in offered[a].preference(a).lexicographicallyPrecedes(offered[b].preference(b)) }.map { offered[$0] }
        }

        /// The sort key of ``choose(from:)``: smaller is preferred.
        private func preference(_ position: Int) -> [Int] {
            let mappingRank = switch mapping {
            case .chipAuthentication: 0
            case .generic: 1
            case .integrated: 2
            }
            let cipherRank = switch cipher {
            case .aes256: 0
            case .aes192: 1
            case .aes128: 2
            case .tripleDES: 3
            }
            return [mappingRank, isDiffieHellman ? 1 : 0, cipherRank, position]
        }

        /// Whether MSE:Set AT must name the domain parameters (DO'84'): Doc 9303 Part 11
        /// §4.4.4.1 and BSI TR-03110 Part 3 §B.11.1 require it when the chip offers more than
        /// one set for PACE, that is when EF.CardAccess lists more than one PACEInfo.
        public static func needsParameterReference(_ infos: SecurityInfos) -> Bool {
            infos.paceProtocols.count > 1
        }

        /// The length of the chip's nonce s: 16 bytes, 32 for Integrated Mapping with AES-192/256
        /// (R(s, t) needs a block of at least the key length).
        package var nonceLength: Int { mapping == .integrated && cipher.keyLength > 16 ? 32 : 16 }

        /// Le of GENERAL AUTHENTICATE: 2048-bit DH answers do not fit 256 bytes.
        package var generalAuthenticateLe: Int { isDiffieHellman && parameterID > 0 ? 65536 : 256 }

        public var description: String { "PACE \(protocolID) on parameters \(parameterID)" }
    }

    /// Runs PACE and returns the secure channel it establishes.
    /// - Throws: ``MRTDError``: `.accessDenied` when the chip's token does not verify (a
    ///   wrong password) or it refuses the terminal's, `.cardRefused`, `.malformedCardResponse`,
    ///   `.cryptoFailure`, `.transportFailure`.
    /// - Parameter referenceParameters: whether MSE:Set AT names the domain parameters
    ///   (DO'84'): when the chip offers several sets (``Parameters/needsParameterReference(_:)``).
    public static func establish(
        password: Password, parameters: Parameters, referenceParameters: Bool = false, over transport: any APDUTransport
    ) async throws(MRTDError) -> SecureChannel {
        try await run(password: password, parameters: parameters, referenceParameters: referenceParameters, over: transport).channel
    }

    /// What a PACE run leaves besides the channel: what Chip Authentication Mapping needs.
    package struct Outcome {
        package var channel: SecureChannel
        /// The chip's mapping public key PK_map,IC.
        package var chipMappingKey: [UInt8]
        /// DO'8A' of the last GENERAL AUTHENTICATE: the encrypted CA_IC of PACE-CAM, if sent.
        package var encryptedChipAuthenticationData: [UInt8]?
        package var encryptionKey: [UInt8]
    }

    package static func run(
        password: Password, parameters: Parameters, referenceParameters: Bool = false, over transport: any APDUTransport
    ) async throws(MRTDError) -> Outcome {
        var calls = 0
        return try await run(password: password, parameters: parameters, referenceParameters: referenceParameters, over: transport) {
            () throws(MRTDError) -> [UInt8] in
            calls += 1
            if calls == 1 && parameters.mapping == .integrated {
                // The system generator (getrandom) is a cryptographic one.
                return (0..<parameters.cipher.keyLength).map { _ in UInt8.random(in: 0...255) }
            }
            return try value(parameters.group.randomPrivateKey())
        }
    }

    package static func establish(
        password: Password, parameters: Parameters, over transport: any APDUTransport,
        privateKey: () throws(MRTDError) -> [UInt8]
    ) async throws(MRTDError) -> SecureChannel {
        try await run(password: password, parameters: parameters, over: transport, privateKey: privateKey).channel
    }

    /// ``establish(password:parameters:over:)`` with the terminal's secrets from `privateKey`,
    /// called for the mapping key (Generic Mapping) or the nonce t (Integrated Mapping), then
    /// for the ephemeral key (for known answers).
    package static func run(
        password: Password, parameters: Parameters, referenceParameters: Bool = false, over transport: any APDUTransport,
        privateKey: () throws(MRTDError) -> [UInt8]
    ) async throws(MRTDError) -> Outcome {
        let cipher = parameters.cipher
        let oid = parameters.protocolID.contents
        // MSE:Set AT: protocol, password reference, and the domain parameters when ambiguous.
        var setATData = TLV.encode(tag: 0x80, value: oid) + TLV.encode(tag: 0x83, value: [password.reference])
        if referenceParameters { setATData += TLV.encode(tag: 0x84, value: [UInt8(parameters.parameterID)]) }
        let setAT = try await send(CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: setATData), over: transport, step: "MSE:Set AT")
        guard setAT.status == .success else {
            throw MRTDError(code: .cardRefused, message: "the chip refused MSE:Set AT for \(parameters)", statusWord: setAT.status)
        }

        // 1. The encrypted nonce.
        let nonceAnswer = try await generalAuthenticate([], last: false, le: parameters.generalAuthenticateLe, over: transport, step: "GENERAL AUTHENTICATE (nonce)")
        guard let encryptedNonce = nonceAnswer.first(where: { $0.tag == 0x80 })?.value, !encryptedNonce.isEmpty, encryptedNonce.count % cipher.blockSize == 0 else {
            throw MRTDError(code: .malformedCardResponse, message: "GENERAL AUTHENTICATE returned no encrypted nonce (DO'80')")
        }
        let passwordKey = try value(KeyDerivation.derive(from: password.bytes(), purpose: .password, cipher: cipher))
        let nonce = try value(decryptNonce(encryptedNonce, key: passwordKey, cipher: cipher))

        // 2. The mapping to the generator G' of this session.
        let group = parameters.group
        let le = parameters.generalAuthenticateLe
        let generator: [UInt8]
        var chipMapping: [UInt8] = []
        switch parameters.mapping {
        case .generic, .chipAuthentication:
            // H = SK_map × PK_map,IC; G' = s × G + H (DH: h = PK^SK, g' = g^s · h).
            let mappingKey = try privateKey()
            let mappingPublic = try value(group.apply(mappingKey, to: nil))
            let mappingAnswer = try await generalAuthenticate(
                TLV.encode(tag: 0x81, value: mappingPublic), last: false, le: le, over: transport, step: "GENERAL AUTHENTICATE (mapping)")
            guard let chipKey = mappingAnswer.first(where: { $0.tag == 0x82 })?.value else {
                throw MRTDError(code: .malformedCardResponse, message: "GENERAL AUTHENTICATE returned no mapping data (DO'82')")
            }
            chipMapping = chipKey
            let shared = try value(group.apply(mappingKey, to: chipKey))
            generator = try value(group.mapGeneric(nonce: nonce, shared: shared))
        case .integrated:
            // The terminal's nonce t goes in plain; G' = f(R(s, t)). The chip answers no data.
            let terminalNonce = try privateKey()
            _ = try await generalAuthenticate(
                TLV.encode(tag: 0x81, value: terminalNonce), last: false, le: le, over: transport, step: "GENERAL AUTHENTICATE (mapping)")
            let x = try value(group.pseudoRandom(s: nonce, t: terminalNonce, cipher: cipher))
            generator = try value(group.mapIntegrated(x))
        }

        // 3. Key agreement on G'.
        let ephemeralKey = try privateKey()
        let ephemeralPublic = try value(group.apply(ephemeralKey, to: generator))
        let agreementAnswer = try await generalAuthenticate(
            TLV.encode(tag: 0x83, value: ephemeralPublic), last: false, le: le, over: transport, step: "GENERAL AUTHENTICATE (key agreement)")
        guard let chipEphemeral = agreementAnswer.first(where: { $0.tag == 0x84 })?.value else {
            throw MRTDError(code: .malformedCardResponse, message: "GENERAL AUTHENTICATE returned no ephemeral key (DO'84')")
        }
        guard chipEphemeral != ephemeralPublic else {
            throw MRTDError(code: .chipAuthenticationFailed, message: "the chip echoed the terminal's ephemeral key")
        }
        let secret = group.sharedSecret(try value(group.apply(ephemeralKey, to: chipEphemeral)))
        let encryptionKey = try value(KeyDerivation.derive(from: secret, purpose: .encryption, cipher: cipher))
        let macKey = try value(KeyDerivation.derive(from: secret, purpose: .mac, cipher: cipher))

        // 4. Mutual authentication tokens over each other's ephemeral key.
        let terminalToken = try token(macKey: macKey, cipher: cipher, oid: oid, publicKey: group.tokenKeyObject(chipEphemeral))
        let tokenAnswer: [TLV]
        do {
            tokenAnswer = try await generalAuthenticate(
                TLV.encode(tag: 0x85, value: terminalToken), last: true, le: le, over: transport, step: "GENERAL AUTHENTICATE (tokens)")
        } catch where error.code == .cardRefused {
            throw MRTDError(code: .accessDenied, message: "the chip rejected the terminal's token: the password is wrong", statusWord: error.statusWord)
        }
        guard let chipToken = tokenAnswer.first(where: { $0.tag == 0x86 })?.value else {
            throw MRTDError(code: .malformedCardResponse, message: "GENERAL AUTHENTICATE returned no token (DO'86')")
        }
        let expected = try token(macKey: macKey, cipher: cipher, oid: oid, publicKey: group.tokenKeyObject(ephemeralPublic))
        guard Bytes.constantTimeEqual(expected, chipToken) else {
            throw MRTDError(code: .chipAuthenticationFailed, message: "the chip's PACE token does not verify")
        }
        let messaging = try SecureMessaging(
            cipher: cipher, encryptionKey: encryptionKey, macKey: macKey, sendSequenceCounter: [UInt8](repeating: 0, count: cipher.blockSize))
        return Outcome(
            channel: SecureChannel(over: transport, messaging: messaging), chipMappingKey: chipMapping,
            encryptedChipAuthenticationData: tokenAnswer.first(where: { $0.tag == 0x8A })?.value, encryptionKey: encryptionKey)
    }

    /// The IV of the chip authentication data: E(KSenc, −1), all bits set (TR-03110 Part 3 §A.3.2).
    package static func chipAuthenticationIV(_ encryptionKey: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        LibCrypto.cipher(.aesECB, encrypt: true, key: encryptionKey, iv: [], data: [UInt8](repeating: 0xFF, count: 16))
    }

    /// CA_IC from DO'8A': AES-CBC decryption with KSenc and ``chipAuthenticationIV(_:)``, unpadded.
    package static func decryptChipAuthenticationData(_ encrypted: [UInt8], encryptionKey: [UInt8]) -> [UInt8]? {
        guard case .success(let iv) = chipAuthenticationIV(encryptionKey),
            case .success(let decrypted) = LibCrypto.cipher(.aesCBC, encrypt: false, key: encryptionKey, iv: iv, data: encrypted)
        else { return nil }
        return ISO9797.unpad(decrypted, blockSize: 16)
    }

    /// Checks PACE Chip Authentication Mapping (Doc 9303 Part 11 §4.4.3.5): CA_IC times the
    /// chip's static key from EF.CardSecurity must be the chip's mapping key.
    package static func verifyChipAuthenticationMapping(
        encrypted: [UInt8], encryptionKey: [UInt8], parameterID: Int, chipMappingKey: [UInt8], chipStaticKey: [UInt8]
    ) -> VerificationCheck {
        let name = "chip authentication mapping"
        guard let scalar = decryptChipAuthenticationData(encrypted, encryptionKey: encryptionKey) else {
            return VerificationCheck(name, .failed, "the chip authentication data does not decrypt")
        }
        guard case .success(let product) = LibCrypto.ecMultiply(parameterID: parameterID, scalar: scalar, point: chipStaticKey) else {
            return VerificationCheck(name, .failed, "the chip's static key is not a point of the PACE curve")
        }
        return product == chipMappingKey
            ? VerificationCheck(name, .passed, "CA_IC times the EF.CardSecurity key is the chip's mapping key")
            : VerificationCheck(name, .failed, "CA_IC does not bind the mapping key to the EF.CardSecurity key: not the genuine chip")
    }

    /// The nonce: the cryptogram decrypted with Kπ, CBC with a zero IV.
    package static func decryptNonce(_ encrypted: [UInt8], key: [UInt8], cipher: SecureMessagingCipher) -> Result<[UInt8], OpenSSLError> {
        switch cipher {
        case .tripleDES: return LibCrypto.cipher(.desEDECBC, encrypt: false, key: key, iv: [UInt8](repeating: 0, count: 8), data: encrypted)
        case .aes128, .aes192, .aes256: return LibCrypto.cipher(.aesCBC, encrypt: false, key: key, iv: [UInt8](repeating: 0, count: 16), data: encrypted)
        }
    }

    /// The authentication token: the MAC of the public key data object 7F49 {06 OID, key}, the
    /// key object from ``PACEGroup/tokenKeyObject(_:)`` (86 point or 84 DH value).
    package static func token(macKey: [UInt8], cipher: SecureMessagingCipher, oid: [UInt8], publicKey keyObject: [UInt8]) throws(MRTDError) -> [UInt8] {
        let inner = TLV.encode(tag: 0x06, value: oid) + keyObject
        let data = [0x7F, 0x49] + TLV.encodeLength(inner.count) + inner
        switch cipher {
        case .tripleDES: return try value(ISO9797.retailMAC(key: macKey, paddedData: ISO9797.pad(data, blockSize: 8)))
        case .aes128, .aes192, .aes256: return try value(LibCrypto.aesCMAC(key: macKey, data: data)).prefix(8).map { $0 }
        }
    }

    /// The x-coordinate of an uncompressed point (04 ‖ x ‖ y).
    package static func xCoordinate(_ point: [UInt8]) -> [UInt8] {
        Array(point.dropFirst().prefix((point.count - 1) / 2))
    }

    /// One GENERAL AUTHENTICATE step: data in DO'7C', chained (CLA 10) except the last.
    private static func generalAuthenticate(_ data: [UInt8], last: Bool, le: Int, over transport: any APDUTransport, step: String) async throws(MRTDError) -> [TLV] {
        let command = CommandAPDU(cla: last ? 0x00 : 0x10, ins: 0x86, data: TLV.encode(tag: 0x7C, value: data), le: le)
        let response = try await send(command, over: transport, step: step)
        guard response.status == .success else {
            throw MRTDError(code: .cardRefused, message: "the chip refused \(step)", statusWord: response.status)
        }
        guard let object = try? TLV.parse(response.data), object.tag == 0x7C else {
            throw MRTDError(code: .malformedCardResponse, message: "\(step) did not answer with a dynamic authentication data object")
        }
        return object.children
    }

    private static func send(_ command: CommandAPDU, over transport: any APDUTransport, step: String) async throws(MRTDError) -> ResponseAPDU {
        do {
            return try await transport.transmit(command)
        } catch {
            throw MRTDError.transport(error, during: step)
        }
    }

    package static func value<T>(_ result: Result<T, OpenSSLError>) throws(MRTDError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .crypto(error)
        }
    }
}
