public import APDU
public import Logging

/// Reads an eMRTD chip over any `APDUTransport`: EF.CardAccess, PACE where it offers a
/// supported protocol (else BAC), EF.COM, then every wanted file EF.COM lists and EF.SOD,
/// fast and through the faults of real readers.
///
/// Each READ BINARY asks for the largest length ``ReadLengthPolicy`` allows and steps down
/// on `6700`, `6Cxx` or another error. A failed protected command has consumed its SSC
/// steps on both sides, and a chip that answers in plain has dropped the session, so the
/// reader never continues a session that lost sync: it authenticates again, selects the
/// file again and resumes at the last good offset. When the card leaves the reader, the
/// caller's `reconnect` waits for it to come back, and the read resumes the same way.
public struct ChipReader: Sendable {
    /// What to read and how hard to try.
    public struct Options: Hashable, Sendable {
        /// The data groups to read when EF.COM lists them (DG3 and DG4 need EAC and are skipped).
        public var dataGroups: Set<Int> = [1, 2, 7, 11, 12, 14, 15]
        /// Whether to read EF.CardAccess first, to learn whether the chip offers PACE.
        public var readCardAccess = true
        /// How many times the card may be lost and reconnected in one read.
        public var maximumReconnects = 3
        /// How many times a session may be re-established after lost sync.
        public var maximumSessionRestarts = 8
        /// Whether to run PACE when EF.CardAccess offers a protocol ``PACE`` implements
        /// (falling back to BAC when it fails); `false` always runs BAC.
        public var preferPACE = true
        /// Whether to run Chip Authentication when DG14 offers it (DG14 is then read first).
        public var chipAuthentication = true
        /// Whether to run Active Authentication when the chip has DG15.
        public var activeAuthentication = true

        public init() {}
    }

    /// Brings the card back after it was lost: waits until it is on the reader again and
    /// returns a fresh transport to it. Throwing ends the read.
    public typealias Reconnect = @Sendable () async throws -> any APDUTransport

    let transport: any APDUTransport
    let password: PACE.Password
    let options: Options
    let reconnect: Reconnect?
    let progress: (@Sendable (ChipReadProgress) -> Void)?
    let logger: Logger?

    /// - Parameters:
    ///   - transport: the plain transport to the chip.
    ///   - key: the MRZ key, for PACE and BAC.
    ///   - options: what to read.
    ///   - reconnect: how to get the card back after it was lost; `nil` makes a lost card an error.
    ///   - progress: called after every chunk read.
    ///   - logger: where recoveries, fallbacks and results are logged, as metadata without
    ///     personal data; `nil` logs nothing.
    public init(
        transport: any APDUTransport, key: MRZKey, options: Options = Options(),
        reconnect: Reconnect? = nil, progress: (@Sendable (ChipReadProgress) -> Void)? = nil, logger: Logger? = nil
    ) {
        self.init(transport: transport, password: .mrz(key), options: options, reconnect: reconnect, progress: progress, logger: logger)
    }

    /// A reader that opens the chip with its card access number: PACE only, since BAC
    /// needs the MRZ; a chip without PACE fails with `.accessDenied`.
    public init(
        transport: any APDUTransport, cardAccessNumber: CardAccessNumber, options: Options = Options(),
        reconnect: Reconnect? = nil, progress: (@Sendable (ChipReadProgress) -> Void)? = nil, logger: Logger? = nil
    ) {
        self.init(transport: transport, password: .can(cardAccessNumber), options: options, reconnect: reconnect, progress: progress, logger: logger)
    }

    private init(
        transport: any APDUTransport, password: PACE.Password, options: Options,
        reconnect: Reconnect?, progress: (@Sendable (ChipReadProgress) -> Void)?, logger: Logger?
    ) {
        self.transport = transport
        self.password = password
        self.options = options
        self.reconnect = reconnect
        self.progress = progress
        self.logger = logger
    }

    /// Reads the chip.
    /// - Returns: the files read, with statistics.
    /// - Throws: ``MRTDError``: `.accessDenied` (wrong MRZ), `.cardLost`, `.cardRefused`
    ///   (a file that cannot be read at any length), `.malformedFile` (EF.COM), and the
    ///   errors of BAC and secure messaging that recovery could not overcome.
    public func read() async throws(MRTDError) -> ChipContents {
        let operation = ReadOperation(reader: self)
        return try await operation.run()
    }
}

/// One read: its I/O, and the actions of its ``ReadSession`` performed. Lives inside
/// `ChipReader.read()` and is used by one task only.
private final class ReadOperation {
    let reader: ChipReader
    var transport: CountingTransport
    var channel: SecureChannel?
    /// What to do after each answer and failure: read lengths, restarts, reconnects.
    var session: ReadSession
    var selected: LDSFile?
    var bytesRead = 0
    var totalBytes = 0
    /// The PACE protocol to run, until it fails once.
    var pace: PACE.Parameters?
    /// Why PACE failed, when it was offered, tried, and the chip was read with BAC instead.
    var paceFailure: String?
    /// The error PACE failed with, for the error to throw when BAC fails after it.
    var paceError: MRTDError?
    /// Whether a new session is being set up (PACE-CAM's EF.CardSecurity): a broken session
    /// is then not recovered where it breaks but by the caller of access control, which
    /// runs it again whole.
    var establishing = false
    var accessControl = ChipContents.AccessControl.bac
    /// Chip Authentication to run after every access control, once DG14 offered it.
    var chipAuthenticationParameters: ChipAuthentication.Parameters?
    var chipAuthentication: VerificationCheck?
    /// EF.CardSecurity, read once after PACE-CAM, or after PACE when EF.CardAccess lists
    /// Chip Authentication (its key then lives in EF.CardSecurity).
    var cardSecurity: [UInt8]?
    /// EF.CardAccess's SecurityInfos.
    var cardAccessInfos: SecurityInfos?
    /// Where the Chip Authentication key came from, for the check's reason.
    var chipAuthenticationSource = "DG14"
    /// Why Chip Authentication cannot run, when DG14 said so.
    var chipAuthenticationUnsupported: String?

    init(reader: ChipReader) {
        self.reader = reader
        transport = CountingTransport(reader.transport)
        session = ReadSession(
            policy: ReadLengthPolicy(extendedLength: reader.transport.supportsExtendedLength, secureMessaging: true),
            maximumSessionRestarts: reader.options.maximumSessionRestarts, maximumReconnects: reader.options.maximumReconnects,
            canReconnect: reader.reconnect != nil)
    }

    func run() async throws(MRTDError) -> ChipContents {
        var cardAccess: [UInt8]?
        var paceOffered = false
        if reader.options.readCardAccess {
            transport.phase = .cardAccess
            cardAccess = try await readCardAccess()
            if let cardAccess, let infos = try? SecurityInfos(cardAccess: cardAccess) {
                cardAccessInfos = infos
                paceOffered = !infos.paceProtocols.isEmpty
                if reader.options.preferPACE { pace = PACE.Parameters.choose(from: infos) }
            }
        }
        transport.phase = .accessControl
        do {
            try await authenticate()
        } catch where Self.isSessionFailure(error.code) {
            // Lifted during access control, or the new session broke before the reading began
            // (a bad MAC while PACE-CAM reads EF.CardSecurity): as for a protected command
            // that fails while reading, wait for the card or start the session over.
            try await recover(session.commandFailed(error, extended: false))
        }
        transport.phase = .reading

        var files: [LDSFile: [UInt8]] = [:]
        var refused: [LDSFile: StatusWord] = [:]
        let comHead = try await head(of: .com)
        guard case .present(let firstCOM, let comTotal) = comHead else {
            throw MRTDError(code: .cardRefused, message: "the chip has no readable EF.COM", statusWord: comHead.status)
        }
        totalBytes = comTotal
        let comBytes = try await readRest(of: .com, head: firstCOM, total: comTotal)
        files[.com] = comBytes
        let com: EFCOM
        do {
            com = try EFCOM(comBytes)
        } catch {
            throw MRTDError(code: .malformedFile, message: "EF.COM does not parse", cause: error)
        }
        var wanted = com.dataGroups.filter { $0.dataGroupNumber.map(reader.options.dataGroups.contains) ?? false } + [.sod]

        // DG14 first when Chip Authentication may run (and PACE-CAM did not already
        // authenticate the chip), so the rest is read under its keys.
        if reader.options.chipAuthentication, wanted.contains(.dg14), chipAuthentication?.outcome != .passed {
            wanted.removeAll { $0 == .dg14 }
            switch try await head(of: .dg14) {
            case .present(let head, let total):
                totalBytes += total
                let bytes = try await readRest(of: .dg14, head: head, total: total)
                files[.dg14] = bytes
                switch (try? SecurityInfos(dataGroup14: bytes)).map(ChipAuthentication.Parameters.support) {
                case .success(let parameters)?:
                    chipAuthenticationParameters = parameters
                    do {
                        try await runChipAuthentication()
                    } catch where error.code == .transportFailure {
                        try await recover(session.cardLost(error))  // authenticates again, Chip Authentication included
                    }
                case .failure(let unsupported)?:
                    chipAuthenticationUnsupported = "DG14: \(unsupported.reason)"
                case nil:
                    chipAuthenticationUnsupported = "DG14 does not parse"
                }
            case .refused(let status):
                refused[.dg14] = status
                chipAuthenticationUnsupported = "the chip refused DG14 (\(status))"
            }
        }
        // No Chip Authentication from DG14, but EF.CardSecurity (read after PACE) has the key.
        if reader.options.chipAuthentication, chipAuthenticationParameters == nil, chipAuthentication == nil,
            let parameters = cardSecurityChipAuthentication()
        {
            chipAuthenticationParameters = parameters
            chipAuthenticationSource = "EF.CardSecurity"
            do {
                try await runChipAuthentication()
            } catch where error.code == .transportFailure {
                try await recover(session.cardLost(error))
            }
        }

        // Headers first, so the overall total is known before the long reads. DG2, the
        // largest, last: it is then still selected and read first, without a second SELECT.
        if let face = wanted.firstIndex(of: .dg2) { wanted.append(wanted.remove(at: face)) }
        var heads: [(file: LDSFile, head: [UInt8], total: Int)] = []
        for file in wanted {
            switch try await head(of: file) {
            case .present(let head, let total):
                heads.append((file, head, total))
                totalBytes += total
                bytesRead += head.count
            case .refused(let status):
                refused[file] = status
            }
        }
        if let last = heads.popLast() { heads.insert(last, at: 0) }
        for entry in heads {
            bytesRead -= entry.head.count
            files[entry.file] = try await readRest(of: entry.file, head: entry.head, total: entry.total)
        }
        var activeAuthentication: VerificationCheck?
        if reader.options.activeAuthentication, let keyBytes = files[.dg15] {
            activeAuthentication = await runActiveAuthentication(dataGroup15: keyBytes, dataGroup14: files[.dg14])
        } else if reader.options.activeAuthentication {
            activeAuthentication = VerificationCheck(
                ActiveAuthentication.name, .notSupported,
                refused[.dg15].map { "the chip refused DG15 (\($0))" } ?? "the chip has no DG15 (no Active Authentication key)")
        }
        // Every check is said: passed, failed, or not supported and why.
        if reader.options.chipAuthentication, chipAuthentication == nil {
            let reason = chipAuthenticationUnsupported
                ?? (com.dataGroups.contains(.dg14) ? "DG14 was not read" : "the chip has no DG14 and EF.CardSecurity offers no key (no Chip Authentication)")
            chipAuthentication = VerificationCheck("chip authentication", .notSupported, reason)
        }
        var statistics = transport.statistics
        reader.logger?.info("chip read", metadata: [
            "accessControl": "\(accessControl.rawValue)", "files": "\(files.keys.sorted().map(\.name).joined(separator: ","))",
            "bytes": "\(bytesRead)", "apdus": "\(statistics.total.commands)", "restarts": "\(session.restarts)", "reconnects": "\(session.reconnects)",
        ])
        statistics.sessionRestarts = session.restarts
        statistics.reconnects = session.reconnects
        statistics.finalReadLength = session.policy.current
        return ChipContents(
            files: files, cardAccess: cardAccess, cardSecurity: cardSecurity, refused: refused, accessControl: accessControl,
            paceOffered: paceOffered, paceFailure: paceFailure, chipAuthentication: chipAuthentication, activeAuthentication: activeAuthentication, statistics: statistics)
    }

    /// Active Authentication inside the session; a malformed DG15 or DG14 is a failed check.
    func runActiveAuthentication(dataGroup15: [UInt8], dataGroup14: [UInt8]?) async -> VerificationCheck {
        let key: DataGroup15
        do {
            key = try DataGroup15(dataGroup15)
        } catch {
            return VerificationCheck(ActiveAuthentication.name, .failed, error.description)
        }
        let infos = dataGroup14.flatMap { try? SecurityInfos(dataGroup14: $0) }
        guard let channel else { return VerificationCheck(ActiveAuthentication.name, .failed, "no session") }
        var generator = SystemRandomNumberGenerator()
        let challenge = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        transport.phase = .activeAuthentication
        defer { transport.phase = .reading }
        return await ActiveAuthentication.authenticate(over: channel, dataGroup15: key, securityInfos: infos, challenge: challenge)
    }

    // MARK: Access

    /// EF.CardAccess in plain, before access control; `nil` when the chip has none.
    func readCardAccess() async throws(MRTDError) -> [UInt8]? {
        let select = try await plain(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1C]), step: "SELECT EF.CardAccess")
        guard select.status == .success else { return nil }
        var data: [UInt8] = []
        // EF.CardAccess is small; short reads in plain are enough and safe before we know the reader.
        var le = 256
        while data.count < 4096 {
            let response = try await plain(CommandAPDU(ins: 0xB0, p1: UInt8(data.count >> 8), p2: UInt8(data.count & 0xFF), le: le), step: "READ BINARY EF.CardAccess")
            if let exact = response.status.correctLength, exact < le {
                le = exact
                continue
            }
            guard response.status.isSuccess || response.status == .endOfFileReached else { break }
            data += response.data
            if let total = Self.totalLength(data), data.count >= total { return Array(data.prefix(total)) }
            if response.data.isEmpty || response.status == .endOfFileReached { break }
        }
        return data.isEmpty ? nil : data
    }

    /// Access control, then Chip Authentication when DG14 offered it: what every new
    /// session needs, the first and every one after a recovery.
    func authenticate() async throws(MRTDError) {
        try await runAccessControl()
        if chipAuthenticationParameters != nil { try await runChipAuthentication() }
    }

    /// Chip Authentication on the current session. A chip that refuses it is recorded as a
    /// failed check and read on without it, in a fresh session (its old one may be gone).
    func runChipAuthentication() async throws(MRTDError) {
        guard let parameters = chipAuthenticationParameters, let current = channel else { return }
        do throws(MRTDError) {
            let upgraded = try await ChipAuthentication.authenticate(with: parameters, over: current, transport: transport)
            channel = upgraded
            selected = nil
            // The chip proves it holds the key by answering under the new keys.
            let select = try await Self.transmit(Self.selectApplication, over: upgraded)
            guard select.status == .success else {
                throw MRTDError(code: .cardRefused, message: "the chip refused SELECT after Chip Authentication", statusWord: select.status)
            }
            chipAuthentication = VerificationCheck(
                "chip authentication", .passed, "the chip answered under keys agreed with its \(chipAuthenticationSource) key (\(parameters.protocolID))")
        } catch where error.code == .transportFailure {
            throw error
        } catch {
            chipAuthentication = VerificationCheck("chip authentication", .failed, error.description)
            reader.logger?.notice("chip authentication failed", metadata: ["error": "\(error.code.rawValue)"])
            chipAuthenticationParameters = nil
            try await runAccessControl()
        }
    }

    /// Reads EF.CardSecurity (in the master file, right after PACE) and checks the chip's
    /// CAM proof against its static key; the result is the Chip Authentication check.
    func verifyChipAuthenticationMapping(_ outcome: PACE.Outcome, parameters: PACE.Parameters) async throws(MRTDError) {
        let name = "chip authentication mapping"
        guard let encrypted = outcome.encryptedChipAuthenticationData else {
            chipAuthentication = VerificationCheck(name, .failed, "the chip ran PACE-CAM without sending its chip authentication data")
            return
        }
        let bytes: [UInt8]
        switch try await readCardSecurity() {
        case .success(let read): bytes = read
        case .failure(let failure):
            chipAuthentication = VerificationCheck(name, .failed, "EF.CardSecurity cannot be selected (SW \(failure.status))")
            return
        }
        guard let infos = try? SecurityInfos(cardSecurity: bytes), let point = infos.chipAuthenticationPublicPoint else {
            chipAuthentication = VerificationCheck(name, .failed, "EF.CardSecurity holds no readable chip authentication key")
            return
        }
        chipAuthentication = PACE.verifyChipAuthenticationMapping(
            encrypted: encrypted, encryptionKey: outcome.encryptionKey, parameterID: parameters.parameterID,
            chipMappingKey: outcome.chipMappingKey, chipStaticKey: point)
    }

    /// Reads EF.CardSecurity in the master file (right after PACE, before the eMRTD
    /// application is selected) and keeps it in ``cardSecurity``; the status word when the
    /// chip has none.
    func readCardSecurity() async throws(MRTDError) -> Result<[UInt8], StatusWordFailure> {
        var bytes: [UInt8] = []
        var total: Int?
        if let status = try await select(.cardSecurity) { return .failure(StatusWordFailure(status: status)) }
        while bytes.count < (total ?? 8) {
            guard let chunk = try await chunk(of: .cardSecurity, offset: bytes.count, le: session.policy.length(remaining: (total ?? 8) - bytes.count)) else {
                continue  // the read length was reduced (a broken session is not recovered here)
            }
            guard case .data(let data) = chunk, !data.isEmpty else { break }
            bytes += data
            if total == nil { total = Self.totalLength(bytes) }
        }
        selected = nil
        cardSecurity = bytes
        return .success(bytes)
    }

    /// A status word as an `Error`, for ``readCardSecurity()``.
    struct StatusWordFailure: Error {
        var status: StatusWord
    }

    /// Chip Authentication parameters from EF.CardSecurity (its ChipAuthenticationInfo and
    /// public key, or the key there and the ChipAuthenticationInfo in EF.CardAccess).
    func cardSecurityChipAuthentication() -> ChipAuthentication.Parameters? {
        guard let cardSecurity, let infos = try? SecurityInfos(cardSecurity: cardSecurity) else { return nil }
        return ChipAuthentication.Parameters(infos)
            ?? cardAccessInfos.flatMap { ChipAuthentication.Parameters(SecurityInfos(infos: infos.infos + $0.infos)) }
    }

    /// Whether EF.CardAccess lists Chip Authentication: its key is then in EF.CardSecurity.
    var cardAccessListsChipAuthentication: Bool {
        cardAccessInfos?.infos.contains {
            if case .chipAuthentication = $0 { true } else if case .chipAuthenticationDomainParameters = $0 { true } else { false }
        } ?? false
    }

    /// Runs PACE and selects the eMRTD application through it, or selects the application
    /// and runs BAC, replacing any earlier session.
    func runAccessControl() async throws(MRTDError) {
        let again = channel != nil
        await channel?.close()
        channel = nil
        selected = nil
        // A session is being replaced (after a secure messaging error, or a refused Chip
        // Authentication): the chip may still expect secure messaging, or may have aborted it.
        if again { try await resynchronize() }
        if let pace {
            var outcome: PACE.Outcome?
            do throws(MRTDError) {
                let ambiguous = cardAccessInfos.map(PACE.Parameters.needsParameterReference) ?? false
                outcome = try await PACE.run(password: reader.password, parameters: pace, referenceParameters: ambiguous, over: transport)
            } catch where error.code != .transportFailure {
                fallBack(from: pace, after: error)
            }
            if let outcome {
                let established = outcome.channel
                channel = established  // a session to resynchronise from if this one breaks
                establishing = true
                defer { establishing = false }
                do throws(MRTDError) {
                    if pace.chipAuthenticationMapping, cardSecurity == nil {
                        try await verifyChipAuthenticationMapping(outcome, parameters: pace)
                    } else if reader.options.chipAuthentication, cardSecurity == nil, cardAccessListsChipAuthentication {
                        _ = try await readCardSecurity()
                    }
                    let select = try await Self.transmit(Self.selectApplication, over: established)
                    guard select.status == .success else {
                        throw MRTDError(code: .cardRefused, message: "the chip has no eMRTD application", statusWord: select.status)
                    }
                    accessControl = .pace
                    return
                } catch where !Self.isSessionFailure(error.code) {
                    fallBack(from: pace, after: error)
                }
                // A failure of the PACE session itself (a bad MAC, the card lifted) is not
                // PACE's: it propagates, and the read recovers and runs PACE again.
            }
        }
        accessControl = .bac
        do throws(MRTDError) {
            try await establishBAC()
        } catch {
            // A PACE-only chip (most ID cards) refuses BAC: say why PACE failed first. The
            // code stays BAC's, the last step, which decides whether a retry can help.
            guard let paceError else { throw error }
            throw MRTDError(
                code: error.code, message: "PACE failed (\(paceError.message)), and BAC after it: \(error.message)",
                statusWord: error.statusWord, cause: paceError)
        }
    }

    /// PACE failed: says so, and reads with BAC (Doc 9303 Part 11 §4.2: a chip offering PACE
    /// also accepts BAC); PACE is not tried again in this read.
    private func fallBack(from pace: PACE.Parameters, after error: MRTDError) {
        reader.logger?.notice("PACE failed, falling back to BAC", metadata: ["error": "\(error.code.rawValue)", "sw": "\(error.statusWord.map(String.init(describing:)) ?? "-")"])
        paceFailure = "\(pace): \(error.message)" + (error.statusWord.map { " (SW \($0))" } ?? "")
        paceError = error
        self.pace = nil
    }

    /// Whether an error is the secure messaging session's or the card's (recovered by a new
    /// session or a reconnect), not the protocol step's.
    static func isSessionFailure(_ code: MRTDError.Code) -> Bool {
        switch code {
        case .transportFailure, .channelClosed, .cardLost, .unprotectedResponse, .macMismatch, .secureMessagingObjectMissing, .malformedSecureMessaging:
            return true
        default:
            return false
        }
    }

    /// BAC after SELECT of the eMRTD application (a chip without PACE, or after PACE failed).
    private func establishBAC() async throws(MRTDError) {
        var select = try await plain(Self.selectApplication, step: "SELECT eMRTD application")
        if Self.abortedSecureMessaging(select.status) {
            // The chip was still in secure messaging and aborted it on this command, unexecuted.
            select = try await plain(Self.selectApplication, step: "SELECT eMRTD application")
        }
        guard select.status == .success else {
            throw MRTDError(code: .cardRefused, message: "the chip has no eMRTD application", statusWord: select.status)
        }
        guard case .mrz(let key) = reader.password else {
            throw MRTDError(code: .accessDenied, message: "the chip does not run PACE with the card access number, and BAC needs the MRZ")
        }
        channel = try await BAC.establish(with: key, over: transport)
    }

    /// A command through the secure channel, whose errors are all ``MRTDError``.
    static func transmit(_ command: CommandAPDU, over channel: SecureChannel) async throws(MRTDError) -> ResponseAPDU {
        do {
            return try await channel.transmit(command)
        } catch let error as MRTDError {
            throw error
        } catch {
            throw MRTDError.transport(error, during: "a protected command")
        }
    }

    static let selectApplication = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])
    static let selectMasterFile = CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [0x3F, 0x00])

    /// `6987` or `6988` to a plain command: the chip was in secure messaging, aborted it on
    /// this command and did not execute it (ISO/IEC 7816-4 §10.1.3; what real chips do).
    static func abortedSecureMessaging(_ status: StatusWord) -> Bool {
        status == .secureMessagingObjectsMissing || status == .secureMessagingObjectsIncorrect
    }

    /// Brings the chip to a known state before a new access control: a plain SELECT of the
    /// master file, sent again when the chip answers that it aborted secure messaging on it
    /// (interoperability fault 3 of #13: the plain command after a bad MAC was taken for "no
    /// eMRTD application"). Other answers are left to the access control that follows.
    func resynchronize() async throws(MRTDError) {
        for _ in 0..<2 {
            let answer = try await plain(Self.selectMasterFile, step: "SELECT MF")
            if !Self.abortedSecureMessaging(answer.status) { return }
        }
    }

    func plain(_ command: CommandAPDU, step: String) async throws(MRTDError) -> ResponseAPDU {
        do {
            return try await transport.transmit(command)
        } catch {
            throw MRTDError.transport(error, during: step)
        }
    }

    // MARK: Reading

    enum Head {
        case present(head: [UInt8], total: Int)
        case refused(StatusWord)

        var status: StatusWord? { if case .refused(let status) = self { status } else { nil } }
    }

    /// Reads the first bytes of `file`: enough for its tag and length.
    func head(of file: LDSFile) async throws(MRTDError) -> Head {
        while true {
            switch try await select(file) {
            case .some(let status): return .refused(status)
            case .none: break
            }
            guard let chunk = try await chunk(of: file, offset: 0, le: 8) else { continue }
            if case .refused(let status) = chunk { return .refused(status) }
            guard case .data(let bytes) = chunk, let total = Self.totalLength(bytes) else {
                throw MRTDError(code: .malformedFile, message: "\(file) does not start with a valid tag and length")
            }
            return .present(head: Array(bytes.prefix(total)), total: total)
        }
    }

    /// Reads `file` from the end of `head` to `total`, reporting progress.
    func readRest(of file: LDSFile, head: [UInt8], total: Int) async throws(MRTDError) -> [UInt8] {
        var data = head
        bytesRead += head.count
        report(file, data.count, total)
        while data.count < total {
            if let status = try await select(file) {
                throw MRTDError(code: .cardRefused, message: "\(file) can no longer be selected", statusWord: status)
            }
            let offset = data.count
            let overhead = offset > 0x7FFF ? 4 : 0
            let le = session.policy.length(remaining: total - offset, overhead: overhead)
            guard let chunk = try await chunk(of: file, offset: offset, le: le) else { continue }
            switch chunk {
            case .refused(let status):
                throw MRTDError(code: .cardRefused, message: "\(file) refused at offset \(offset)", statusWord: status)
            case .data(let bytes):
                guard !bytes.isEmpty else {
                    throw MRTDError(code: .malformedCardResponse, message: "\(file) ended at \(offset) of \(total) bytes")
                }
                let taken = bytes.prefix(total - offset)
                data += taken
                bytesRead += taken.count
                report(file, data.count, total)
            }
        }
        return data
    }

    func report(_ file: LDSFile, _ read: Int, _ total: Int) {
        reader.progress?(ChipReadProgress(file: file, fileBytesRead: read, fileTotal: total, bytesRead: bytesRead, totalBytes: max(totalBytes, bytesRead)))
    }

    enum Chunk {
        case data([UInt8])
        case refused(StatusWord)
    }

    /// Selects `file` unless it is selected; returns the status word when the chip refuses it.
    func select(_ file: LDSFile) async throws(MRTDError) -> StatusWord? {
        guard selected != file else { return nil }
        transport.file = file
        let command = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(file.fid >> 8), UInt8(file.fid & 0xFF)])
        while true {
            guard let response = try await protected(command, extended: false) else { continue }
            if response.status == .success {
                selected = file
                return nil
            }
            return response.status
        }
    }

    /// One READ BINARY. `nil` means "the session or the length changed; try again".
    func chunk(of file: LDSFile, offset: Int, le: Int) async throws(MRTDError) -> Chunk? {
        let odd = offset > 0x7FFF
        let command = odd
            ? CommandAPDU(ins: 0xB1, data: [0x54] + Self.offsetBytes(offset), le: le)
            : CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), le: le)
        guard let response = try await protected(command, extended: le > 256) else { return nil }
        switch session.readAnswered(response.status, length: le) {
        case .useAnswer:
            guard odd else { return .data(response.data) }
            guard let object = try? TLV.parse(response.data), object.tag == 0x53 else {
                throw MRTDError(code: .malformedCardResponse, message: "odd-INS READ BINARY answer is not a DO'53'")
            }
            return .data(object.value)
        case .refuse(let status):
            return .refused(status)
        case .resume:
            reader.logger?.debug("read length reduced", metadata: ["sw": "\(response.status)", "readLength": "\(session.policy.current)"])
            return nil
        case let recovery:
            guard !establishing else {
                throw MRTDError(code: .malformedSecureMessaging, message: "the chip ended the new session while \(file.name) was read", statusWord: response.status)
            }
            try await recover(recovery)
            return nil
        }
    }

    /// Sends a command through the secure channel. Returns `nil` after recovering from a
    /// lost session or a lost card, so the caller starts the step again.
    func protected(_ command: CommandAPDU, extended: Bool) async throws(MRTDError) -> ResponseAPDU? {
        guard let channel else { throw MRTDError(code: .channelClosed, message: "no session") }
        let failure: MRTDError
        do {
            return try await channel.transmit(command)
        } catch let error as MRTDError {
            failure = error
        } catch {
            throw MRTDError.transport(error, during: "a protected command")
        }
        if establishing { throw failure }
        try await recover(session.commandFailed(failure, extended: extended))
        return nil
    }

    /// Performs `action` and the session's next actions until it says to resume.
    /// - Throws: the error the session gives up with.
    func recover(_ action: ReadSession.Action) async throws(MRTDError) {
        var action = action
        while true {
            switch action {
            case .resume, .useAnswer, .refuse:
                return  // answers to a READ BINARY come only from `readAnswered`, which `chunk` handles
            case .fail(let error):
                throw error
            case .restartSession(let reason):
                reader.logger?.notice("re-establishing the secure messaging session", metadata: [
                    "reason": "\(reason?.rawValue ?? "extended length refused")", "restart": "\(session.restarts)",
                    "readLength": "\(session.policy.current)",
                ])
                action = await establishSessionAgain(readingAfterFailure: true)
            case .reconnect:
                reader.logger?.notice("card lost, waiting for it to come back", metadata: ["reconnect": "\(session.reconnects)", "file": "\(selected?.name ?? "-")"])
                guard let reconnect = reader.reconnect else {
                    action = session.reconnectFailed(MRTDError(code: .cardLost, message: "no way to bring the card back"))
                    continue
                }
                do {
                    let fresh = try await reconnect()
                    transport = CountingTransport(fresh, statistics: transport.statistics)
                    action = session.reconnected()
                } catch {
                    action = session.reconnectFailed(error)
                }
            case .authenticateReturnedCard:
                action = await establishSessionAgain(readingAfterFailure: false)
            }
        }
    }

    /// Runs access control (and Chip Authentication) again, counted as recovery, and tells
    /// the session how it went.
    /// - Parameter readingAfterFailure: whether later commands count as reading also when it
    ///   failed (a restart on the same card); a returned card's failure leaves it recovery.
    func establishSessionAgain(readingAfterFailure: Bool) async -> ReadSession.Action {
        transport.phase = .recovery
        do {
            try await authenticate()
            transport.phase = .reading
            return session.authenticated()
        } catch {
            if readingAfterFailure { transport.phase = .reading }
            return session.authenticationFailed(error)
        }
    }

    /// DO'54' offset bytes: the fewest that hold it.
    static func offsetBytes(_ offset: Int) -> [UInt8] {
        let bytes = offset > 0xFFFF ? [UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)] : [UInt8(offset >> 8), UInt8(offset & 0xFF)]
        return [UInt8(bytes.count)] + bytes
    }

    /// The length of the whole object that `head` starts (tag, length field and value);
    /// `nil` when the head is too short or not a definite length.
    static func totalLength(_ head: [UInt8]) -> Int? {
        guard !head.isEmpty else { return nil }
        var position = 1
        if head[0] & 0x1F == 0x1F {
            while position < head.count, head[position] & 0x80 != 0 { position += 1 }
            position += 1
        }
        guard position < head.count else { return nil }
        let first = head[position]
        position += 1
        if first < 0x80 { return position + Int(first) }
        let count = Int(first & 0x7F)
        guard (1...4).contains(count), head.count >= position + count else { return nil }
        let length = head[position..<(position + count)].reduce(0) { $0 << 8 | Int($1) }
        return position + count + length
    }
}
