public import APDU

/// Chip Authentication (ICAO Doc 9303 Part 11 §6.2, BSI TR-03110 version 1): an ECDH key
/// agreement with the chip's static key from DG14 that replaces the session keys, so only
/// a chip holding the private key can continue secure messaging; a cloned chip cannot.
///
/// ECDH on the standardized curves, named or given as explicit parameters (matched to the
/// standardized curve that has them), with 3DES (MSE:Set KAT) and AES (MSE:Set AT and
/// GENERAL AUTHENTICATE). DH keys are not supported: ``Parameters/support(_:)`` says so.
public enum ChipAuthentication {
    /// What DG14 says about Chip Authentication, in the form the protocol needs.
    public struct Parameters: Hashable, Sendable {
        public let protocolID: OID
        public let cipher: SecureMessagingCipher
        /// The chip's public key as an uncompressed point.
        public let chipPublicKey: [UInt8]
        /// The standardized domain parameter ID of its curve.
        public let parameterID: Int
        public let keyID: Int?

        /// id-CA-ECDH (0.4.0.127.0.7.2.2.3.2).
        public static let ecdh: OID = "0.4.0.127.0.7.2.2.3.2"

        /// Named curves by OID → standardized domain parameter ID (TR-03110 Part 3 Table 4).
        package static let curves: [OID: Int] = [
            "1.2.840.10045.3.1.1": 8, "1.3.36.3.3.2.8.1.1.3": 9, "1.3.132.0.33": 10, "1.3.36.3.3.2.8.1.1.5": 11,
            "1.2.840.10045.3.1.7": 12, "1.3.36.3.3.2.8.1.1.7": 13, "1.3.36.3.3.2.8.1.1.9": 14, "1.3.132.0.34": 15,
            "1.3.36.3.3.2.8.1.1.11": 16, "1.3.36.3.3.2.8.1.1.13": 17, "1.3.132.0.35": 18,
        ]

        /// What DG14 (or EF.CardSecurity) offers: parameters to run, or why Chip
        /// Authentication cannot run, for the result to say so (never silent).
        public static func support(_ infos: SecurityInfos) -> Result<Parameters, Unsupported> {
            if let parameters = Parameters(infos) { return .success(parameters) }
            let offered = infos.infos.compactMap { info -> OID? in if case .chipAuthentication(let oid, _, _) = info { oid } else { nil } }
            let keys = infos.infos.compactMap { info -> [UInt8]? in if case .chipAuthenticationPublicKey(_, let spki, _) = info { spki } else { nil } }
            if offered.isEmpty && keys.isEmpty { return .failure(Unsupported(reason: "no ChipAuthenticationInfo or public key is listed")) }
            if keys.isEmpty { return .failure(Unsupported(reason: "no ChipAuthenticationPublicKeyInfo goes with \(offered.map(\.description).joined(separator: ", "))")) }
            if offered.contains(where: { !$0.hasPrefix(Self.ecdh) }) || offered.isEmpty {
                return .failure(Unsupported(reason: "only ECDH is implemented; the chip offers \(offered.isEmpty ? "a key without a protocol" : offered.map(\.description).joined(separator: ", "))"))
            }
            return .failure(Unsupported(reason: "the chip's key is on a curve that is not a standardized one (BSI TR-03110 Part 3 Table 4)"))
        }

        /// Why Chip Authentication cannot run on this chip.
        public struct Unsupported: Error, Hashable, Sendable {
            public var reason: String
        }

        /// The first supported ChipAuthenticationInfo with its public key; `nil` when DG14
        /// offers none this implementation runs.
        public init?(_ infos: SecurityInfos) {
            var keys: [(spki: [UInt8], keyID: Int?)] = []
            for info in infos.infos {
                if case .chipAuthenticationPublicKey(let oid, let spki, let keyID) = info, oid == "0.4.0.127.0.7.2.2.1.2" {
                    keys.append((spki, keyID))
                }
            }
            for info in infos.infos {
                guard case .chipAuthentication(let oid, _, let keyID) = info, oid.hasPrefix(Self.ecdh),
                    oid.arcs.count == Self.ecdh.arcs.count + 1
                else { continue }
                let cipher: SecureMessagingCipher
                switch oid.arcs.last {
                case 1: cipher = .tripleDES
                case 2: cipher = .aes128
                case 3: cipher = .aes192
                case 4: cipher = .aes256
                default: continue
                }
                guard let key = keys.first(where: { keyID == nil || $0.keyID == keyID }),
                    let (parameterID, point) = Self.namedCurveKey(key.spki)
                else { continue }
                self.protocolID = oid
                self.cipher = cipher
                self.chipPublicKey = point
                self.parameterID = parameterID
                self.keyID = keyID ?? key.keyID
                return
            }
            return nil
        }

        /// The curve and point of an id-ecPublicKey SubjectPublicKeyInfo: a named curve, or
        /// explicit ECParameters (RFC 3279) of a standardized curve.
        package static func namedCurveKey(_ spki: [UInt8]) -> (Int, [UInt8])? {
            guard let info = try? TLV.parse(spki), info.children.count == 2,
                let algorithm = info.children.first, algorithm.children.count == 2,
                let curveObject = algorithm.children.last,
                let bits = info.children.last, bits.tag == 0x03, bits.value.first == 0x00
            else { return nil }
            let id: Int?
            switch curveObject.tag {
            case 0x06: id = OID(contents: curveObject.value).flatMap { curves[$0] }
            case 0x30: id = explicitCurve(curveObject)
            default: id = nil
            }
            guard let id else { return nil }
            return (id, Array(bits.value.dropFirst()))
        }

        /// ECParameters ::= SEQUENCE { version INTEGER (1), fieldID SEQUENCE { prime-field OID,
        /// p INTEGER }, curve SEQUENCE { a OCTET STRING, b OCTET STRING, seed BIT STRING
        /// OPTIONAL }, base OCTET STRING, order INTEGER, cofactor INTEGER OPTIONAL }: the
        /// standardized curve with these values, if any.
        package static func explicitCurve(_ parameters: TLV) -> Int? {
            let items = parameters.children
            guard items.count >= 5, items[0].tag == 0x02, items[0].value == [0x01],
                items[1].tag == 0x30, items[1].children.count == 2,
                items[1].children[0].tag == 0x06, OID(contents: items[1].children[0].value) == "1.2.840.10045.1.1",
                items[1].children[1].tag == 0x02,
                items[2].tag == 0x30, items[2].children.count >= 2, items[2].children[0].tag == 0x04, items[2].children[1].tag == 0x04,
                items[3].tag == 0x04, items[4].tag == 0x02
            else { return nil }
            return LibCrypto.ecParameterID(
                prime: items[1].children[1].value, a: items[2].children[0].value, b: items[2].children[1].value,
                generator: items[3].value, order: items[4].value)
        }
    }

    /// Runs Chip Authentication inside `channel` and returns the channel under the new keys.
    /// - Throws: ``MRTDError``: `.cardRefused` when the chip refuses the key agreement
    ///   (its old session may then be gone), `.cryptoFailure`, and the channel's errors.
    public static func authenticate(with parameters: Parameters, over channel: SecureChannel, transport: any APDUTransport) async throws(MRTDError) -> SecureChannel {
        let key = try value(LibCrypto.ecRandomScalar(parameterID: parameters.parameterID))
        return try await authenticate(with: parameters, over: channel, transport: transport, privateKey: key)
    }

    package static func authenticate(
        with parameters: Parameters, over channel: SecureChannel, transport: any APDUTransport, privateKey: [UInt8]
    ) async throws(MRTDError) -> SecureChannel {
        let publicKey = try value(LibCrypto.ecMultiply(parameterID: parameters.parameterID, scalar: privateKey, point: nil))
        let keyReference = parameters.keyID.map { TLV.encode(tag: 0x84, value: DER.unsignedBytes($0)) } ?? []
        if parameters.cipher == .tripleDES {
            let answer = try await transmit(CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA6, data: TLV.encode(tag: 0x91, value: publicKey) + keyReference), over: channel)
            guard answer.status == .success else {
                throw MRTDError(code: .cardRefused, message: "the chip refused MSE:Set KAT", statusWord: answer.status)
            }
        } else {
            let setAT = try await transmit(
                CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: TLV.encode(tag: 0x80, value: parameters.protocolID.contents) + keyReference), over: channel)
            guard setAT.status == .success else {
                throw MRTDError(code: .cardRefused, message: "the chip refused MSE:Set AT for Chip Authentication", statusWord: setAT.status)
            }
            let answer = try await transmit(
                CommandAPDU(ins: 0x86, data: TLV.encode(tag: 0x7C, value: TLV.encode(tag: 0x80, value: publicKey)), le: 256), over: channel)
            guard answer.status == .success else {
                throw MRTDError(code: .cardRefused, message: "the chip refused GENERAL AUTHENTICATE for Chip Authentication", statusWord: answer.status)
            }
        }
        let messaging = try sessionKeys(
            cipher: parameters.cipher,
            secretPoint: value(LibCrypto.ecMultiply(parameterID: parameters.parameterID, scalar: privateKey, point: parameters.chipPublicKey)))
        await channel.close()
        return SecureChannel(over: transport, messaging: messaging)
    }

    /// The new session: KDF over the x-coordinate of the shared point, SSC zero.
    package static func sessionKeys(cipher: SecureMessagingCipher, secretPoint: [UInt8]) throws(MRTDError) -> SecureMessaging {
        let secret = PACE.xCoordinate(secretPoint)
        return try SecureMessaging(
            cipher: cipher,
            encryptionKey: value(KeyDerivation.derive(from: secret, purpose: .encryption, cipher: cipher)),
            macKey: value(KeyDerivation.derive(from: secret, purpose: .mac, cipher: cipher)),
            sendSequenceCounter: [UInt8](repeating: 0, count: cipher.blockSize))
    }

    private static func transmit(_ command: CommandAPDU, over channel: SecureChannel) async throws(MRTDError) -> ResponseAPDU {
        do {
            return try await channel.transmit(command)
        } catch let error as MRTDError {
            throw error
        } catch {
            throw MRTDError.transport(error, during: "Chip Authentication")
        }
    }

    package static func value<T>(_ result: Result<T, OpenSSLError>) throws(MRTDError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .crypto(error)
        }
    }
}
