public import APDU

/// The secure messaging codec of ICAO Doc 9303 Part 11 §9.8: session keys and the send
/// sequence counter, protecting commands and unprotecting responses.
///
/// A value with no I/O: ``SecureChannel`` owns one and drives it per exchange. The SSC
/// advances once per protected command and once per unprotected response. Keys never
/// appear in `description`, `debugDescription` or reflection.
public struct SecureMessaging: Sendable {
    public let cipher: SecureMessagingCipher
    package let encryptionKey: [UInt8]
    package let macKey: [UInt8]
    /// The send sequence counter, one cipher block long.
    public package(set) var sendSequenceCounter: [UInt8]

    /// Starts a session from keys and an initial SSC established by BAC or PACE.
    /// - Throws: ``MRTDError`` (`.invalidCommand`) when a key or the SSC has the wrong length for `cipher`.
    public init(
        cipher: SecureMessagingCipher, encryptionKey: [UInt8], macKey: [UInt8], sendSequenceCounter: [UInt8]
    ) throws(MRTDError) {
        guard encryptionKey.count == cipher.keyLength, macKey.count == cipher.keyLength else {
            throw MRTDError(code: .invalidCommand, message: "session keys must be \(cipher.keyLength) bytes for \(cipher)")
        }
        guard sendSequenceCounter.count == cipher.blockSize else {
            throw MRTDError(code: .invalidCommand, message: "the send sequence counter must be \(cipher.blockSize) bytes for \(cipher)")
        }
        self.cipher = cipher
        self.encryptionKey = encryptionKey
        self.macKey = macKey
        self.sendSequenceCounter = sendSequenceCounter
    }

    /// Wraps a plain command: masks CLA, encrypts the data into DO'87' (even INS, with
    /// padding-content indicator 01) or DO'85' (odd INS), carries Le in DO'97', and
    /// appends DO'8E', the MAC over SSC, the padded header and those objects.
    /// - Returns: the protected command, with Le' asking for everything (`00` or `0000`).
    /// - Throws: ``MRTDError`` `.invalidCommand` when the result fits no APDU, `.cryptoFailure`.
    public mutating func protect(_ command: CommandAPDU) throws(MRTDError) -> CommandAPDU {
        if let le = command.le, !(1...CommandAPDU.maxExtendedLe).contains(le) {
            throw MRTDError(code: .invalidCommand, message: "Le of \(le) cannot be protected")
        }
        guard command.data.count <= CommandAPDU.maxExtendedData - 64 else {
            throw MRTDError(code: .invalidCommand, message: "\(command.data.count) data bytes are too many to protect in one APDU")
        }
        var counter = sendSequenceCounter
        Bytes.increment(&counter)
        let header: [UInt8] = [command.cla | 0x0C, command.ins, command.p1, command.p2]
        var body: [UInt8] = []
        if !command.data.isEmpty {
            let encrypted = try crypt(cipher.encrypt(key: encryptionKey, counter: counter, data: ISO9797.pad(command.data, blockSize: cipher.blockSize)))
            body += command.ins & 1 == 0
                ? TLV.encode(tag: 0x87, value: [0x01] + encrypted)
                : TLV.encode(tag: 0x85, value: encrypted)
        }
        if let le = command.le {
            body += TLV.encode(tag: 0x97, value: Self.encodeLe(le))
        }
        let macInput = ISO9797.pad(counter + ISO9797.pad(header, blockSize: cipher.blockSize) + body, blockSize: cipher.blockSize)
        let mac = try crypt(cipher.mac(key: macKey, paddedData: macInput))
        body += TLV.encode(tag: 0x8E, value: mac)
        sendSequenceCounter = counter
        let extended = body.count > CommandAPDU.maxShortData || (command.le ?? 0) > CommandAPDU.maxShortLe
        return CommandAPDU(
            cla: header[0], ins: command.ins, p1: command.p1, p2: command.p2, data: body,
            le: extended ? CommandAPDU.maxExtendedLe : CommandAPDU.maxShortLe)
    }

    /// Unwraps a protected response: checks DO'8E' over the other objects before
    /// decrypting anything, then returns the plain data and the status word from DO'99'.
    /// - Throws: ``MRTDError``: `.unprotectedResponse` for a plain status word (the chip
    ///   has left secure messaging), `.secureMessagingObjectMissing` without DO'99' or
    ///   DO'8E', `.macMismatch`, `.malformedSecureMessaging`, `.cryptoFailure`.
    public mutating func unprotect(_ response: ResponseAPDU) throws(MRTDError) -> ResponseAPDU {
        Bytes.increment(&sendSequenceCounter)
        guard !response.data.isEmpty else {
            throw MRTDError(
                code: .unprotectedResponse,
                message: "the chip answered without secure messaging; the session is over",
                statusWord: response.status)
        }
        let objects: [TLV]
        do {
            objects = try TLV.parseAll(response.data)
        } catch {
            throw MRTDError(code: .malformedSecureMessaging, message: "response data objects are not valid BER-TLV", statusWord: response.status, cause: error)
        }
        var cryptogram: TLV?
        var status: TLV?
        var mac: TLV?
        for object in objects {
            guard mac == nil else {
                throw MRTDError(code: .malformedSecureMessaging, message: "data object after DO'8E'", statusWord: response.status)
            }
            switch object.tag {
            case 0x85 where cryptogram == nil, 0x87 where cryptogram == nil: cryptogram = object
            case 0x99 where status == nil: status = object
            case 0x8E: mac = object
            default:
                throw MRTDError(
                    code: .malformedSecureMessaging,
                    message: "unexpected or repeated data object \(String(object.tag, radix: 16, uppercase: true))",
                    statusWord: response.status)
            }
        }
        guard let status, status.value.count == 2 else {
            throw MRTDError(code: .secureMessagingObjectMissing, message: "response has no valid DO'99' (protected status word)", statusWord: response.status)
        }
        guard let mac, mac.value.count == 8 else {
            throw MRTDError(code: .secureMessagingObjectMissing, message: "response has no valid DO'8E' (MAC)", statusWord: response.status)
        }
        let covered = Array(response.data[0..<mac.range.lowerBound])
        let expected = try crypt(cipher.mac(key: macKey, paddedData: ISO9797.pad(sendSequenceCounter + covered, blockSize: cipher.blockSize)))
        guard Bytes.constantTimeEqual(expected, mac.value) else {
            throw MRTDError(code: .macMismatch, message: "response MAC does not verify: tampered, corrupted or out of sequence", statusWord: response.status)
        }
        var plain: [UInt8] = []
        if let cryptogram {
            var encrypted = cryptogram.value
            if cryptogram.tag == 0x87 {
                guard encrypted.first == 0x01 else {
                    throw MRTDError(code: .malformedSecureMessaging, message: "DO'87' padding-content indicator is not 01", statusWord: response.status)
                }
                encrypted.removeFirst()
            }
            guard !encrypted.isEmpty, encrypted.count % cipher.blockSize == 0 else {
                throw MRTDError(code: .malformedSecureMessaging, message: "cryptogram is not a whole number of blocks", statusWord: response.status)
            }
            let decrypted = try crypt(cipher.decrypt(key: encryptionKey, counter: sendSequenceCounter, data: encrypted))
            guard let unpadded = ISO9797.unpad(decrypted, blockSize: cipher.blockSize) else {
                throw MRTDError(code: .malformedSecureMessaging, message: "decrypted data has no ISO/IEC 9797-1 padding", statusWord: response.status)
            }
            plain = unpadded
        }
        return ResponseAPDU(data: plain, status: StatusWord(sw1: status.value[0], sw2: status.value[1]))
    }

    /// DO'97' content: one byte up to 256 (256 as `00`), two bytes beyond (65536 as `0000`).
    private static func encodeLe(_ le: Int) -> [UInt8] {
        if le <= CommandAPDU.maxShortLe { return [UInt8(le & 0xFF)] }
        return [UInt8(le >> 8 & 0xFF), UInt8(le & 0xFF)]
    }

    private func crypt(_ result: Result<[UInt8], OpenSSLError>) throws(MRTDError) -> [UInt8] {
        switch result {
        case .success(let bytes): return bytes
        case .failure(let error): throw .crypto(error)
        }
    }
}

extension SecureMessaging: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The cipher only: keys and counter stay out of logs.
    public var description: String { "SecureMessaging(\(cipher), keys redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
