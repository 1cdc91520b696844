package import MRTD

package import APDU

extension PACE {
    /// The chip's half of PACE (Generic, Integrated and Chip Authentication Mapping, ECDH and
    /// DH), for the virtual passport: a state machine fed MSE:Set AT and the four GENERAL
    /// AUTHENTICATE steps, which ends in a secure messaging session.
    package struct ChipSession: Sendable {
        private enum State: Sendable {
            case idle
            case ready(Parameters)
            case nonceSent(Parameters, nonce: [UInt8])
            case mapped(Parameters, generator: [UInt8], mappingKey: [UInt8])
            case agreed(Parameters, SecureMessaging, terminalKey: [UInt8], chipKey: [UInt8], mappingKey: [UInt8])
        }

        /// The parameter sets EF.CardAccess offers, in its order.
        private let offered: [Parameters]
        /// Password bytes by password reference (1 MRZ, 2 CAN).
        private let passwords: [UInt8: [UInt8]]
        private var password: [UInt8] = []
        private var state = State.idle
        /// The static private key of EF.CardSecurity, for PACE-CAM.
        private let staticKey: [UInt8]?

        /// - Parameters:
        ///   - offered: the protocols and domain parameters the chip's EF.CardAccess offers;
        ///     with more than one, MSE:Set AT must name the domain parameters (DO'84'), as a
        ///     real chip requires, and is refused with 6A80 otherwise.
        ///   - key: the document's MRZ key.
        ///   - cardAccessNumber: the CAN, when the chip accepts one.
        ///   - staticKey: the chip's static private key (EF.CardSecurity), needed for PACE-CAM.
        package init(offered: [Parameters], key: MRZKey, cardAccessNumber: CardAccessNumber? = nil, staticKey: [UInt8]? = nil) throws(MRTDError) {
            self.offered = offered
            self.staticKey = staticKey
            var passwords: [UInt8: [UInt8]] = [0x01: try Password.mrz(key).bytes()]
            if let cardAccessNumber { passwords[0x02] = try Password.can(cardAccessNumber).bytes() }
            self.passwords = passwords
        }

        /// What the chip answers, and the session once the terminal's token verified.
        package mutating func process(_ command: CommandAPDU) -> (response: ResponseAPDU, session: SecureMessaging?) {
            do {
                return try step(command)
            } catch {
                state = .idle
                return (ResponseAPDU(status: error.status), nil)
            }
        }

        private struct Refusal: Error {
            var status: StatusWord
        }

        private mutating func step(_ command: CommandAPDU) throws(Refusal) -> (response: ResponseAPDU, session: SecureMessaging?) {
            if command.ins == 0x22 {
                guard command.p1 == 0xC1, command.p2 == 0xA4, let objects = try? TLV.parseAll(command.data),
                    let oid = objects.first(where: { $0.tag == 0x80 })?.value,
                    let reference = objects.first(where: { $0.tag == 0x83 })?.value, reference.count == 1,
                    let chosen = passwords[reference[0]]
                else { throw Refusal(status: .incorrectData) }
                let candidates = offered.filter { $0.protocolID.contents == oid }
                let parameters: Parameters
                if let named = objects.first(where: { $0.tag == 0x84 })?.value {
                    // DO'84': the standardized domain parameter ID, one byte.
                    guard named.count == 1, let match = candidates.first(where: { $0.parameterID == Int(named[0]) }) else {
                        throw Refusal(status: .incorrectData)
                    }
                    parameters = match
                } else {
                    // Without DO'84' only an unambiguous offer will do (Doc 9303 Part 11 §4.4.4.1).
                    guard offered.count == 1, let only = candidates.first else { throw Refusal(status: .incorrectData) }
                    parameters = only
                }
                password = chosen
                state = .ready(parameters)
                return (ResponseAPDU(status: .success), nil)
            }
            guard command.ins == 0x86, let template = try? TLV.parse(command.data), template.tag == 0x7C else {
                throw Refusal(status: .incorrectData)
            }
            let data = template.children.first?.value ?? []
            func crypto<T>(_ result: Result<T, OpenSSLError>) throws(Refusal) -> T {
                guard case .success(let value) = result else { throw Refusal(status: .noPreciseDiagnosis) }
                return value
            }
            switch state {
            case .idle:
                throw Refusal(status: .conditionsNotSatisfied)
            case .ready(let parameters):
                let cipher = parameters.cipher
                let nonce = (0..<parameters.nonceLength).map { _ in UInt8.random(in: 0...255) }
                let passwordKey = try crypto(KeyDerivation.derive(from: password, purpose: .password, cipher: cipher))
                let zero = [UInt8](repeating: 0, count: cipher.blockSize)
                let encrypted = try crypto(cipher == .tripleDES
                    ? LibCrypto.cipher(.desEDECBC, encrypt: true, key: passwordKey, iv: zero, data: nonce)
                    : LibCrypto.cipher(.aesCBC, encrypt: true, key: passwordKey, iv: zero, data: nonce))
                state = .nonceSent(parameters, nonce: nonce)
                return (Self.answer(0x80, encrypted), nil)
            case .nonceSent(let parameters, let nonce):
                let group = parameters.group
                if parameters.mapping == .integrated {
                    // DO'81' is the terminal's nonce t; G' = f(R(s, t)); the answer carries no data.
                    guard data.count == parameters.cipher.keyLength else { throw Refusal(status: .incorrectData) }
                    let x = try crypto(group.pseudoRandom(s: nonce, t: data, cipher: parameters.cipher))
                    let generator = try crypto(group.mapIntegrated(x))
                    state = .mapped(parameters, generator: generator, mappingKey: [])
                    return (ResponseAPDU(data: [0x7C, 0x00], status: .success), nil)
                }
                let key = try crypto(group.randomPrivateKey())
                let publicKey = try crypto(group.apply(key, to: nil))
                let shared = try crypto(group.apply(key, to: data))
                let generator = try crypto(group.mapGeneric(nonce: nonce, shared: shared))
                state = .mapped(parameters, generator: generator, mappingKey: key)
                return (Self.answer(0x82, publicKey), nil)
            case .mapped(let parameters, let generator, let mappingKey):
                let group = parameters.group
                let key = try crypto(group.randomPrivateKey())
                let publicKey = try crypto(group.apply(key, to: generator))
                let secret = group.sharedSecret(try crypto(group.apply(key, to: data)))
                let encryption = try crypto(KeyDerivation.derive(from: secret, purpose: .encryption, cipher: parameters.cipher))
                let mac = try crypto(KeyDerivation.derive(from: secret, purpose: .mac, cipher: parameters.cipher))
                guard let messaging = try? SecureMessaging(
                    cipher: parameters.cipher, encryptionKey: encryption, macKey: mac,
                    sendSequenceCounter: [UInt8](repeating: 0, count: parameters.cipher.blockSize))
                else { throw Refusal(status: .noPreciseDiagnosis) }
                state = .agreed(parameters, messaging, terminalKey: data, chipKey: publicKey, mappingKey: mappingKey)
                return (Self.answer(0x84, publicKey), nil)
            case .agreed(let parameters, let messaging, let terminalKey, let chipKey, let mappingKey):
                let oid = parameters.protocolID.contents
                guard let expected = try? token(macKey: messaging.macKey, cipher: parameters.cipher, oid: oid, publicKey: parameters.group.tokenKeyObject(chipKey)),
                    Bytes.constantTimeEqual(expected, data)
                else { throw Refusal(status: StatusWord(rawValue: 0x6300)) }
                guard let chipToken = try? token(macKey: messaging.macKey, cipher: parameters.cipher, oid: oid, publicKey: parameters.group.tokenKeyObject(terminalKey)) else {
                    throw Refusal(status: .noPreciseDiagnosis)
                }
                state = .idle
                var body = TLV.encode(tag: 0x86, value: chipToken)
                if parameters.chipAuthenticationMapping, let staticKey {
                    // CA_IC = SK_map,IC × SK_IC⁻¹, encrypted under KSenc with IV = E(KSenc, −1).
                    let scalar = try crypto(LibCrypto.ecChipAuthenticationScalar(parameterID: parameters.parameterID, mappingKey: mappingKey, staticKey: staticKey))
                    let iv = try crypto(chipAuthenticationIV(messaging.encryptionKey))
                    let encrypted = try crypto(LibCrypto.cipher(.aesCBC, encrypt: true, key: messaging.encryptionKey, iv: iv, data: ISO9797.pad(scalar, blockSize: 16)))
                    body += TLV.encode(tag: 0x8A, value: encrypted)
                }
                return (ResponseAPDU(data: TLV.encode(tag: 0x7C, value: body), status: .success), messaging)
            }
        }

        private static func answer(_ tag: UInt8, _ value: [UInt8]) -> ResponseAPDU {
            ResponseAPDU(data: TLV.encode(tag: 0x7C, value: TLV.encode(tag: tag, value: value)), status: .success)
        }
    }
}
