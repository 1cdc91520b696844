public import APDU
import COpenPACE
import Synchronization
public import VirtualCard

/// An eMRTD chip whose PACE, Chip Authentication and secure messaging are OpenPACE's
/// (Debian's libeac, through the `COpenPACE` shim): an implementation of ICAO Doc 9303
/// Part 11 that shares no code with the reader, so a misreading of the specification in
/// `MRTD` shows as a failed read instead of two halves agreeing with each other. For tests.
///
/// A PACE-only chip, as ID cards are: it answers GET CHALLENGE (BAC) with `6D00`. Before
/// PACE, only EF.CardAccess can be read; afterwards every command must be protected, and
/// a plain or badly MACed one ends the session with `6987`/`6988`, as real chips do.
public final class OpenPACEPassport: CardApplication {
    /// The chip's static Chip Authentication key, matching DG14.
    public struct ChipAuthenticationKey: Sendable {
        /// The ChipAuthenticationInfo protocol, dotted (e.g. id-CA-ECDH-AES-CBC-CMAC-128).
        public var protocolID: String
        /// The standardized domain parameter ID of the key's group.
        public var parameterID: Int
        /// The private value (big-endian).
        public var privateKey: [UInt8]
        /// The public key: an uncompressed point.
        public var publicKey: [UInt8]

        public init(protocolID: String, parameterID: Int, privateKey: [UInt8], publicKey: [UInt8]) {
            self.protocolID = protocolID
            self.parameterID = parameterID
            self.privateKey = privateKey
            self.publicKey = publicKey
        }
    }

    /// Why the chip cannot be made.
    public enum SetupError: Error, CustomStringConvertible {
        /// OpenPACE does not accept EF.CardAccess.
        case cardAccessRejected(String)
        /// OpenPACE does not accept the Chip Authentication key.
        case chipAuthenticationKeyRejected

        public var description: String {
            switch self {
            case .cardAccessRejected(let reason): return "OpenPACE rejects EF.CardAccess: \(reason)"
            case .chipAuthenticationKeyRejected: return "OpenPACE rejects the Chip Authentication key"
            }
        }
    }

    private struct State: ~Copyable {
        var fileSystem: FileSystem
        /// The commands answered under secure messaging since PACE (for fault injection).
        var protectedCommands = 0
        var corruptMACOnCommand: Int?
        var sessions = 0
    }

    private nonisolated(unsafe) let chip: OpaquePointer
    /// Serialises every use of `chip` and the file system; held inside ``library``.
    private let state: Mutex<State>
    /// Serialises every call into OpenPACE, across chips: it is not safe from several threads.
    private static let library = Mutex(())
    public let atr: [UInt8] = FileSystemCard.defaultATR

    /// How many OpenPACE found PACEInfos in EF.CardAccess.
    public let offeredParameterSets: Int

    /// - Parameters:
    ///   - mrz: the document's MRZ (a TD3's two lines); the chip takes the PACE password from
    ///     the document number, date of birth and date of expiry with their check digits.
    ///   - files: the eMRTD application's files by FID.
    ///   - cardAccess: EF.CardAccess, parsed by OpenPACE.
    ///   - cardAccessNumber: the CAN the chip also accepts.
    ///   - chipAuthenticationKey: DG14's key, when the chip does Chip Authentication.
    public init(
        mrz: String, files: [(fid: UInt16, sfi: UInt8?, contents: [UInt8])], cardAccess: [UInt8],
        cardAccessNumber: String? = nil, chipAuthenticationKey: ChipAuthenticationKey? = nil
    ) throws(SetupError) {
        // TD3 line 2: document number and check digit at 0, date of birth at 13, expiry at 21.
        let line2 = Array(mrz.utf8.dropFirst(44))
        let information = line2.count >= 28 ? String(decoding: line2[0..<10] + line2[13..<20] + line2[21..<28], as: UTF8.self) : ""
        guard let chip = Self.library.withLock({ _ in cardAccess.withUnsafeBufferPointer { access in
            information.withCString { mrzInformation in
                if let cardAccessNumber {
                    return cardAccessNumber.withCString { COpenPACE_chip_new(access.baseAddress, access.count, mrzInformation, $0) }
                }
                return COpenPACE_chip_new(access.baseAddress, access.count, mrzInformation, nil)
            }
        } }) else { throw .cardAccessRejected(Self.lastError()) }
        if let key = chipAuthenticationKey {
            let accepted = Self.library.withLock { _ in key.privateKey.withUnsafeBufferPointer { privateKey in
                key.publicKey.withUnsafeBufferPointer { publicKey in
                    COpenPACE_chip_set_chip_authentication_key(
                        chip, key.protocolID, Int32(key.parameterID), privateKey.baseAddress, privateKey.count,
                        publicKey.baseAddress, publicKey.count)
                }
            } }
            guard accepted == 1 else {
                Self.library.withLock { _ in COpenPACE_chip_free(chip) }
                throw .chipAuthenticationKeyRejected
            }
        }
        self.chip = chip
        offeredParameterSets = Int(COpenPACE_chip_offered(chip))
        let master = [FileSystem.ElementaryFile(fid: 0x011C, sfi: 0x1C, contents: cardAccess)]
        let application = FileSystem.Application(
            aid: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01],
            files: files.map { FileSystem.ElementaryFile(fid: $0.fid, sfi: $0.sfi, contents: $0.contents, protected: true) })
        state = Mutex(State(fileSystem: FileSystem(masterFiles: master, applications: [application])))
    }

    deinit { Self.library.withLock { _ in COpenPACE_chip_free(chip) } }

    /// The protected answer to this protected command (counted from 1 within the session)
    /// gets a wrong MAC, once; `nil` for none.
    public func corruptMAC(onCommand count: Int?) {
        state.withLock { $0.corruptMACOnCommand = count }
    }

    /// How many PACE sessions were established.
    public var sessionsEstablished: Int { state.withLock { $0.sessions } }

    public func reset() {
        Self.library.withLock { _ in state.withLock { state in
            COpenPACE_chip_abort(chip)
            state.fileSystem.reset()
        } }
    }

    public func process(_ command: CommandAPDU) -> ResponseAPDU {
        Self.library.withLock { _ in state.withLock { state in
            guard let bytes = try? command.encoded(extended: command.needsExtendedLength) else { return ResponseAPDU(status: .wrongLength) }
            if command.cla & 0x0C == 0x0C { return processProtected(bytes, state: &state) }
            if COpenPACE_chip_secure(chip) == 1 {
                COpenPACE_chip_abort(chip)
                state.fileSystem.securityStatusSatisfied = false
                return ResponseAPDU(status: .secureMessagingObjectsMissing)
            }
            switch command.ins {
            case 0x22, 0x86:
                let (status, data) = call(bytes) { COpenPACE_chip_pace(chip, $0, $1, $2, $3, $4) }
                if COpenPACE_chip_secure(chip) == 1 {
                    state.fileSystem.securityStatusSatisfied = true
                    state.protectedCommands = 0
                    state.sessions += 1
                }
                return ResponseAPDU(data: data, status: StatusWord(rawValue: status))
            case 0x84, 0x82:
                return ResponseAPDU(status: .instructionNotSupported)
            default:
                return state.fileSystem.process(command)
            }
        } }
    }

    private func processProtected(_ bytes: [UInt8], state: inout State) -> ResponseAPDU {
        let (status, plainBytes) = call(bytes) { COpenPACE_chip_unwrap(chip, $0, $1, $2, $3, $4) }
        guard status == 0x9000, let plain = try? CommandAPDU(bytes: plainBytes) else {
            state.fileSystem.securityStatusSatisfied = false
            return ResponseAPDU(status: StatusWord(rawValue: status == 0x9000 ? 0x6988 : status))
        }
        state.protectedCommands += 1
        let response: ResponseAPDU
        var chipAuthenticated = false
        if plain.ins == 0x22 || plain.ins == 0x86 {
            let (caStatus, data) = call(plainBytes) { COpenPACE_chip_chip_authentication(chip, $0, $1, $2, $3, $4) }
            response = ResponseAPDU(data: data, status: StatusWord(rawValue: caStatus))
            chipAuthenticated = caStatus == 0x9000 && (plain.ins == 0x86 || plain.p2 == 0xA6)
        } else {
            response = state.fileSystem.process(plain)
        }
        let (wrapStatus, wrapped) = response.data.withUnsafeBufferPointer { data in
            call([]) { _, _, out, cap, length in
                COpenPACE_chip_wrap(chip, data.baseAddress, data.count, response.status.rawValue, plain.ins & 1 == 1 ? 1 : 0, out, cap, length)
            }
        }
        if chipAuthenticated { COpenPACE_chip_finish_chip_authentication(chip) }
        guard wrapStatus == 0x9000, var protected = try? ResponseAPDU(bytes: wrapped) else {
            return ResponseAPDU(status: .noPreciseDiagnosis)
        }
        if state.corruptMACOnCommand == state.protectedCommands, let last = protected.data.indices.last {
            protected.data[last] ^= 0x5A  // the MAC is the last data object
            state.corruptMACOnCommand = nil  // once
        }
        return protected
    }

    /// Calls a shim function that writes an answer; returns its status word and the bytes.
    private func call(
        _ input: [UInt8],
        _ body: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> UInt16
    ) -> (UInt16, [UInt8]) {
        var out = [UInt8](repeating: 0, count: input.count + 70_000)
        var length = 0
        let status = input.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { out in
                body(input.baseAddress, input.count, out.baseAddress, out.count, &length)
            }
        }
        return (status, Array(out[0..<length]))
    }

    private static func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        COpenPACE_last_error(&buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "no detail" : text
    }
}
