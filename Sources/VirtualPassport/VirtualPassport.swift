public import APDU
public import MRTD
import Synchronization
public import VirtualCard

/// An ICAO 9303 eMRTD chip as a card application: the eMRTD application with its LDS
/// files behind Basic Access Control and secure messaging, and EF.CardAccess in the
/// master file when given.
///
/// Before BAC, reading a data group answers `6982`. After it, every command must be
/// protected; a plain command ends the session, as Doc 9303 Part 11 §9.8.4 requires.
public final class VirtualPassport: CardApplication {
    /// The eMRTD application identifier (Doc 9303 Part 10 §3.6.1).
    public static let applicationIdentifier: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]

    private struct State {
        var fileSystem: FileSystem
        var chipNonce: [UInt8]?
        var session: SecureMessaging?
        var protectedCommands = 0
        var quirks: PassportQuirks
        var sessions = 0
        /// PACE, when EF.CardAccess offers a protocol the chip side implements.
        var pace: PACE.ChipSession?
        /// Chip Authentication with AES: MSE:Set AT seen, GENERAL AUTHENTICATE expected.
        var chipAuthenticationPending = false
    }

    /// The chip's static key for Chip Authentication, matching the key in DG14.
    public struct ChipAuthenticationKey: Sendable {
        /// The private scalar.
        public var privateKey: [UInt8]
        /// The standardized domain parameter ID of its curve.
        public var parameterID: Int
        /// The cipher of the ChipAuthenticationInfo in DG14.
        public var cipher: SecureMessagingCipher

        public init(privateKey: [UInt8], parameterID: Int, cipher: SecureMessagingCipher) {
            self.privateKey = privateKey
            self.parameterID = parameterID
            self.cipher = cipher
        }
    }

    private let key: MRZKey
    private let activeAuthenticationKey: [UInt8]?
    private let chipAuthenticationKey: ChipAuthenticationKey?
    private let state: Mutex<State>
    public let atr: [UInt8]

    /// - Parameters:
    ///   - key: the MRZ key the chip accepts.
    ///   - files: the LDS files of the eMRTD application (EF.COM, data groups, EF.SOD).
    ///   - cardAccess: EF.CardAccess contents, when the chip should offer it.
    ///   - quirks: the behaviour to show.
    ///   - activeAuthenticationKey: the PKCS #8 private key matching DG15, for INTERNAL AUTHENTICATE.
    ///   - chipAuthenticationKey: the static key matching DG14, for Chip Authentication.
    ///   - cardAccessNumber: the CAN PACE also accepts.
    ///   - cardSecurity: EF.CardSecurity for the master file; with PACE-CAM it must hold the
    ///     public half of `chipAuthenticationKey`.
    public init(
        key: MRZKey, files: [LDSFile: [UInt8]], cardAccess: [UInt8]? = nil, quirks: PassportQuirks = PassportQuirks(),
        activeAuthenticationKey: [UInt8]? = nil, chipAuthenticationKey: ChipAuthenticationKey? = nil,
        cardAccessNumber: CardAccessNumber? = nil, cardSecurity: [UInt8]? = nil
    ) {
        self.key = key
        self.activeAuthenticationKey = activeAuthenticationKey
        self.chipAuthenticationKey = chipAuthenticationKey
        let elementaryFiles = files.keys.sorted().map { file in
            FileSystem.ElementaryFile(fid: file.fid, sfi: file.sfi, contents: files[file] ?? [], protected: true)
        }
        var master = cardAccess.map { [FileSystem.ElementaryFile(fid: LDSFile.cardAccess.fid, sfi: LDSFile.cardAccess.sfi, contents: $0)] } ?? []
        if let cardSecurity {
            // Readable only after PACE, as Doc 9303 Part 11 §9.2.11 allows.
            master.append(FileSystem.ElementaryFile(fid: LDSFile.cardSecurity.fid, sfi: LDSFile.cardSecurity.sfi, contents: cardSecurity, protected: true))
        }
        let fileSystem = FileSystem(masterFiles: master, applications: [.init(aid: Self.applicationIdentifier, files: elementaryFiles)])
        let offered = cardAccess.flatMap { try? SecurityInfos(cardAccess: $0) }.map(PACE.Parameters.supported(in:)) ?? []
        let pace = offered.isEmpty
            ? nil : try? PACE.ChipSession(offered: offered, key: key, cardAccessNumber: cardAccessNumber, staticKey: chipAuthenticationKey?.privateKey)
        state = Mutex(State(fileSystem: fileSystem, quirks: quirks, pace: pace))
        atr = quirks.extendedLength ? FileSystemCard.defaultATR : Self.shortLengthATR
    }

    /// A PC/SC part 3 contactless ATR whose card capabilities announce command chaining
    /// but not extended length.
    public static let shortLengthATR: [UInt8] = {
        let body: [UInt8] = [0x8A, 0x80, 0x01, 0x80, 0x31, 0xF8, 0x73, 0xF7, 0x41, 0x80, 0x82, 0x90, 0x00]
        return [0x3B] + body + [body.reduce(0, ^)]
    }()

    /// The quirks from the next command on.
    public var quirks: PassportQuirks {
        get { state.withLock { $0.quirks } }
        set { state.withLock { $0.quirks = newValue } }
    }

    /// How many BAC sessions were established since creation (a reader that re-authenticates counts up).
    public var sessionsEstablished: Int { state.withLock { $0.sessions } }

    public func reset() {
        state.withLock { state in
            state.fileSystem.reset()
            state.chipNonce = nil
            state.session = nil
            state.chipAuthenticationPending = false
        }
    }

    public func process(_ command: CommandAPDU) -> ResponseAPDU {
        state.withLock { state in
            if command.cla & 0x0C == 0x0C { return processProtected(command, state: &state) }
            // As a real chip: a plain command during secure messaging aborts the session and is
            // answered 6987 (expected secure messaging data objects missing), unexecuted.
            if state.session != nil {
                state.session = nil
                state.fileSystem.securityStatusSatisfied = false
                return ResponseAPDU(status: .secureMessagingObjectsMissing)
            }
            switch command.ins {
            case 0x84:
                guard command.le == 8 else { return ResponseAPDU(status: .wrongLength) }
                let nonce = (0..<8).map { _ in UInt8.random(in: 0...255) }
                state.chipNonce = nonce
                return ResponseAPDU(data: nonce, status: .success)
            case 0x82:
                return externalAuthenticate(command, state: &state)
            case 0x22, 0x86:
                guard var pace = state.pace, !state.quirks.refusePACE else { return ResponseAPDU(status: .instructionNotSupported) }
                let (response, session) = pace.process(command)
                state.pace = pace
                if let session {
                    state.session = session
                    state.protectedCommands = 0
                    state.sessions += 1
                    state.fileSystem.securityStatusSatisfied = true
                }
                return response
            default:
                if command.ins == 0xB0 || command.ins == 0xB1, let exact = state.quirks.exactLengthAbove, let le = command.le, le > exact {
                    return ResponseAPDU(status: StatusWord(sw1: 0x6C, sw2: UInt8(exact & 0xFF)))
                }
                return state.fileSystem.process(command)
            }
        }
    }

    /// Chip Authentication: MSE:Set KAT (3DES), or MSE:Set AT then GENERAL AUTHENTICATE (AES).
    private func chipAuthenticate(_ command: CommandAPDU, key: ChipAuthenticationKey, state: inout State) -> (ResponseAPDU, SecureMessaging?) {
        let objects = (try? TLV.parseAll(command.data)) ?? []
        switch (command.ins, command.p1, command.p2) {
        case (0x22, 0x41, 0xA6):
            guard let terminalKey = objects.first(where: { $0.tag == 0x91 })?.value,
                let session = ChipAuthentication.chipSession(cipher: key.cipher, parameterID: key.parameterID, privateKey: key.privateKey, terminalKey: terminalKey)
            else { return (ResponseAPDU(status: .incorrectData), nil) }
            return (ResponseAPDU(status: .success), session)
        case (0x22, 0x41, 0xA4):
            state.chipAuthenticationPending = true
            return (ResponseAPDU(status: .success), nil)
        case (0x86, _, _):
            state.chipAuthenticationPending = false
            guard let template = objects.first, template.tag == 0x7C, let terminalKey = template.child(0x80)?.value,
                let session = ChipAuthentication.chipSession(cipher: key.cipher, parameterID: key.parameterID, privateKey: key.privateKey, terminalKey: terminalKey)
            else { return (ResponseAPDU(status: .incorrectData), nil) }
            return (ResponseAPDU(data: [0x7C, 0x00], status: .success), session)
        default:
            return (ResponseAPDU(status: .incorrectP1P2), nil)
        }
    }

    /// Active Authentication: sign the terminal's 8-byte challenge with the DG15 key.
    private func internalAuthenticate(_ command: CommandAPDU) -> ResponseAPDU {
        guard let activeAuthenticationKey else { return ResponseAPDU(status: .instructionNotSupported) }
        guard command.data.count == 8 else { return ResponseAPDU(status: .wrongLength) }
        guard let signature = ActiveAuthentication.chipSignature(privateKey: activeAuthenticationKey, challenge: command.data) else {
            return ResponseAPDU(status: .noPreciseDiagnosis)
        }
        return ResponseAPDU(data: signature, status: .success)
    }

    private func externalAuthenticate(_ command: CommandAPDU, state: inout State) -> ResponseAPDU {
        defer { state.chipNonce = nil }
        guard let nonce = state.chipNonce else { return ResponseAPDU(status: .conditionsNotSatisfied) }
        let chipKey = (0..<16).map { _ in UInt8.random(in: 0...255) }
        guard let answer = BAC.chipAnswer(key: key, data: command.data, chipNonce: nonce, chipKey: chipKey) else {
            return ResponseAPDU(status: StatusWord(rawValue: 0x6300))
        }
        state.session = answer.messaging
        state.protectedCommands = 0
        state.sessions += 1
        state.fileSystem.securityStatusSatisfied = true
        return ResponseAPDU(data: answer.response, status: .success)
    }

    private func processProtected(_ command: CommandAPDU, state: inout State) -> ResponseAPDU {
        guard var session = state.session else { return ResponseAPDU(status: .securityStatusNotSatisfied) }
        let plain: CommandAPDU
        do {
            plain = try session.unprotectCommand(command)
        } catch {
            state.session = nil
            state.fileSystem.securityStatusSatisfied = false
            return ResponseAPDU(status: error.status)
        }
        state.protectedCommands += 1
        let isRead = plain.ins == 0xB0 || plain.ins == 0xB1
        var response: ResponseAPDU
        if isRead, let limit = state.quirks.wrongLengthAbove, let le = plain.le, le > limit {
            if state.quirks.wrongLengthIsPlain {  // the session ends with the plain answer
                state.session = nil
                state.fileSystem.securityStatusSatisfied = false
                return ResponseAPDU(status: .wrongLength)
            }
            response = ResponseAPDU(status: .wrongLength)
        } else if isRead, let exact = state.quirks.exactLengthAbove, let le = plain.le, le > exact {
            response = ResponseAPDU(status: StatusWord(sw1: 0x6C, sw2: UInt8(exact & 0xFF)))
        } else if plain.ins == 0x88 {
            response = internalAuthenticate(plain)
        } else {
            var request = plain
            if isRead, let cap = state.quirks.maxReadLength, let le = request.le, le > cap {
                // The chip's buffer limits the answer; it does not say so.
                request.le = cap + (plain.ins == 0xB1 ? 4 : 0)
            }
            response = state.fileSystem.process(request)
            if request.le != plain.le, response.status == .endOfFileReached { response.status = .success }
        }
        var nextSession: SecureMessaging?
        if let chipKey = chipAuthenticationKey, plain.ins == 0x22 || (plain.ins == 0x86 && state.chipAuthenticationPending) {
            (response, nextSession) = chipAuthenticate(plain, key: chipKey, state: &state)
        }
        let corrupt = state.quirks.corruptMACOnCommand == state.protectedCommands
        if corrupt { state.quirks.corruptMACOnCommand = nil }  // once, as a radio error would
        let protected = session.protectResponse(response, oddINS: plain.ins & 1 == 1, corruptMAC: corrupt)
        // The answer to Chip Authentication goes out under the old keys; the new ones follow.
        state.session = nextSession ?? session
        if nextSession != nil { state.protectedCommands = 0 }
        return protected
    }
}
