package import APDU
package import MRTD

/// The chip's half of secure messaging, for the virtual passport: unprotect what a
/// terminal sent and protect the answer. Same keys and counter rules as the terminal's
/// half (Doc 9303 Part 11 §9.8): the SSC advances once per command and once per response.
extension SecureMessaging {
    /// Why a chip refuses a protected command; the chip answers it with a plain status word
    /// and ends the session.
    package enum ChipFailure: Error {
        /// DO'8E' missing or DO'87'/'85'/'97' malformed: `6987`.
        case objectsMissing
        /// The MAC does not verify, or the cryptogram does not decrypt: `6988`.
        case objectsIncorrect

        package var status: StatusWord {
            switch self {
            case .objectsMissing: return .secureMessagingObjectsMissing
            case .objectsIncorrect: return .secureMessagingObjectsIncorrect
            }
        }
    }

    /// Checks and decrypts a protected command.
    /// - Throws: ``ChipFailure`` naming the status word to answer.
    package mutating func unprotectCommand(_ command: CommandAPDU) throws(ChipFailure) -> CommandAPDU {
        Bytes.increment(&sendSequenceCounter)
        guard command.cla & 0x0C == 0x0C, let objects = try? TLV.parseAll(command.data),
            let mac = objects.last, mac.tag == 0x8E, mac.value.count == 8
        else { throw .objectsMissing }
        let header: [UInt8] = [command.cla, command.ins, command.p1, command.p2]
        let covered = Array(command.data[0..<mac.range.lowerBound])
        let macInput = ISO9797.pad(sendSequenceCounter + ISO9797.pad(header, blockSize: cipher.blockSize) + covered, blockSize: cipher.blockSize)
        guard case .success(let expected) = cipher.mac(key: macKey, paddedData: macInput), Bytes.constantTimeEqual(expected, mac.value) else {
            throw .objectsIncorrect
        }
        var plain = CommandAPDU(cla: command.cla & ~0x0C, ins: command.ins, p1: command.p1, p2: command.p2)
        for object in objects.dropLast() {
            switch object.tag {
            case 0x87, 0x85:
                var encrypted = object.value
                if object.tag == 0x87 {
                    guard encrypted.first == 0x01 else { throw .objectsIncorrect }
                    encrypted.removeFirst()
                }
                guard !encrypted.isEmpty, encrypted.count % cipher.blockSize == 0,
                    case .success(let decrypted) = cipher.decrypt(key: encryptionKey, counter: sendSequenceCounter, data: encrypted),
                    let data = ISO9797.unpad(decrypted, blockSize: cipher.blockSize)
                else { throw .objectsIncorrect }
                plain.data = data
            case 0x97:
                let value = object.value.reduce(0) { $0 << 8 | Int($1) }
                switch object.value.count {
                case 1: plain.le = value == 0 ? CommandAPDU.maxShortLe : value
                case 2: plain.le = value == 0 ? CommandAPDU.maxExtendedLe : value
                default: throw .objectsIncorrect
                }
            default:
                throw .objectsIncorrect
            }
        }
        return plain
    }

    /// Protects an answer: data in DO'87' (or DO'85' for an odd INS), DO'99', DO'8E'.
    /// - Parameter corruptMAC: send a wrong MAC, for tests of the terminal's check.
    /// Data objects exactly as given, followed by a valid DO'8E' over them: what a chip that
    /// MACs malformed objects of its own would send (the fuzzer's way past the MAC check).
    package mutating func sealed(objects: [UInt8]) -> ResponseAPDU {
        Bytes.increment(&sendSequenceCounter)
        let mac = (try? cipher.mac(key: macKey, paddedData: ISO9797.pad(sendSequenceCounter + objects, blockSize: cipher.blockSize)).get()) ?? []
        return ResponseAPDU(data: objects + TLV.encode(tag: 0x8E, value: mac), status: .success)
    }

    package mutating func protectResponse(_ response: ResponseAPDU, oddINS: Bool = false, corruptMAC: Bool = false) -> ResponseAPDU {
        Bytes.increment(&sendSequenceCounter)
        var body: [UInt8] = []
        if !response.data.isEmpty,
            case .success(let encrypted) = cipher.encrypt(
                key: encryptionKey, counter: sendSequenceCounter, data: ISO9797.pad(response.data, blockSize: cipher.blockSize))
        {
            body += oddINS ? TLV.encode(tag: 0x85, value: encrypted) : TLV.encode(tag: 0x87, value: [0x01] + encrypted)
        }
        body += TLV.encode(tag: 0x99, value: [response.status.sw1, response.status.sw2])
        var mac = (try? cipher.mac(key: macKey, paddedData: ISO9797.pad(sendSequenceCounter + body, blockSize: cipher.blockSize)).get()) ?? []
        if corruptMAC, !mac.isEmpty { mac[0] ^= 0xFF }
        body += TLV.encode(tag: 0x8E, value: mac)
        return ResponseAPDU(data: body, status: .success)
    }
}
