import CPCSCLite
import Glibc

// Every pcsc-lite function is called from exactly one function here. Each returns a
// `Result` whose failure names the call and its return code; nothing else in the
// module touches CPCSCLite functions. The raw handles stay inside the module.

typealias PCSCResult<T> = Result<T, SmartCardError>

@inline(__always)
private func check(_ call: String, _ rv: LONG) -> PCSCResult<Void> {
    rv == SCARD_S_SUCCESS ? .success(()) : .failure(SmartCardError(call: call, status: PCSCStatus(rawValue: Int(rv))))
}

enum PCSC {
    static func establishContext() -> PCSCResult<SCARDCONTEXT> {
        var context: SCARDCONTEXT = 0
        return check("SCardEstablishContext", SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &context))
            .map { context }
    }

    static func releaseContext(_ context: SCARDCONTEXT) -> PCSCResult<Void> {
        check("SCardReleaseContext", SCardReleaseContext(context))
    }

    static func isValidContext(_ context: SCARDCONTEXT) -> Bool {
        SCardIsValidContext(context) == SCARD_S_SUCCESS
    }

    /// The readers pcscd knows; an empty list (not an error) when none is attached.
    static func listReaders(_ context: SCARDCONTEXT) -> PCSCResult<[String]> {
        var length: DWORD = 0
        var rv = SCardListReaders(context, nil, nil, &length)
        if rv == SCARD_E_NO_READERS_AVAILABLE { return .success([]) }
        if case .failure(let e) = check("SCardListReaders", rv) { return .failure(e) }
        var buffer = [CChar](repeating: 0, count: Int(length))
        rv = SCardListReaders(context, nil, &buffer, &length)
        if rv == SCARD_E_NO_READERS_AVAILABLE { return .success([]) }
        return check("SCardListReaders", rv).map { splitMultiString(buffer) }
    }

    /// Waits until one of `states` differs from its `currentState`, or `timeout` (ms) passes.
    /// On success the event states are written back into `states`.
    static func getStatusChange(_ context: SCARDCONTEXT, timeout: DWORD, states: inout [ReaderStateSnapshot])
        -> PCSCResult<Void>
    {
        let names = states.map { strdup($0.reader) }
        defer { names.forEach { free($0) } }
        var raw = states.enumerated().map { i, s in
            var r = SCARD_READERSTATE()
            r.szReader = UnsafePointer(names[i])
            r.dwCurrentState = s.currentState
            return r
        }
        let rv = SCardGetStatusChange(context, timeout, &raw, DWORD(raw.count))
        for i in states.indices {
            states[i].eventState = raw[i].dwEventState
            let atrLength = min(Int(raw[i].cbAtr), Int(MAX_ATR_SIZE))
            states[i].atr = withUnsafeBytes(of: raw[i].rgbAtr) { Array($0.prefix(atrLength)) }
        }
        return check("SCardGetStatusChange", rv)
    }

    static func cancel(_ context: SCARDCONTEXT) -> PCSCResult<Void> {
        check("SCardCancel", SCardCancel(context))
    }

    static func connect(_ context: SCARDCONTEXT, reader: String, share: ShareMode, protocols: CardProtocols)
        -> PCSCResult<(SCARDHANDLE, CardProtocols)>
    {
        var handle: SCARDHANDLE = 0
        var active: DWORD = 0
        return check(
            "SCardConnect",
            SCardConnect(context, reader, DWORD(share.rawValue), DWORD(protocols.rawValue), &handle, &active)
        ).map { (handle, CardProtocols(rawValue: UInt32(active))) }
    }

    static func reconnect(_ handle: SCARDHANDLE, share: ShareMode, protocols: CardProtocols, initialization: Disposition)
        -> PCSCResult<CardProtocols>
    {
        var active: DWORD = 0
        return check(
            "SCardReconnect",
            SCardReconnect(handle, DWORD(share.rawValue), DWORD(protocols.rawValue), DWORD(initialization.rawValue), &active)
        ).map { CardProtocols(rawValue: UInt32(active)) }
    }

    static func disconnect(_ handle: SCARDHANDLE, disposition: Disposition) -> PCSCResult<Void> {
        check("SCardDisconnect", SCardDisconnect(handle, DWORD(disposition.rawValue)))
    }

    static func transmit(_ handle: SCARDHANDLE, protocol active: CardProtocols, command: [UInt8]) -> PCSCResult<[UInt8]> {
        let pci = active == .t0 ? cpcsc_pci_t0() : cpcsc_pci_t1()
        var response = [UInt8](repeating: 0, count: Int(cpcsc_max_buffer_size_extended()))
        var length = DWORD(response.count)
        let rv = SCardTransmit(handle, pci, command, DWORD(command.count), nil, &response, &length)
        return check("SCardTransmit", rv).map { Array(response.prefix(Int(length))) }
    }

    static func status(_ handle: SCARDHANDLE) -> PCSCResult<(reader: String, state: DWORD, protocol: CardProtocols, atr: [UInt8])> {
        var nameBuffer = [CChar](repeating: 0, count: Int(MAX_READERNAME) + 1)
        var nameLength = DWORD(nameBuffer.count)
        var state: DWORD = 0
        var active: DWORD = 0
        var atr = [UInt8](repeating: 0, count: Int(MAX_ATR_SIZE))
        var atrLength = DWORD(atr.count)
        let rv = SCardStatus(handle, &nameBuffer, &nameLength, &state, &active, &atr, &atrLength)
        return check("SCardStatus", rv).map {
            (splitMultiString(nameBuffer).first ?? "", state, CardProtocols(rawValue: UInt32(active)), Array(atr.prefix(Int(atrLength))))
        }
    }

    static func getAttribute(_ handle: SCARDHANDLE, _ attribute: DWORD) -> PCSCResult<[UInt8]> {
        var buffer = [UInt8](repeating: 0, count: 264)
        var length = DWORD(buffer.count)
        return check("SCardGetAttrib", SCardGetAttrib(handle, attribute, &buffer, &length)).map {
            Array(buffer.prefix(Int(length)))
        }
    }

    static func control(_ handle: SCARDHANDLE, code: DWORD, input: [UInt8]) -> PCSCResult<[UInt8]> {
        var output = [UInt8](repeating: 0, count: Int(MAX_BUFFER_SIZE))
        var length: DWORD = 0
        let rv = input.withUnsafeBytes { inBytes in
            SCardControl(handle, code, inBytes.baseAddress, DWORD(input.count), &output, DWORD(output.count), &length)
        }
        return check("SCardControl", rv).map { Array(output.prefix(Int(length))) }
    }

    /// Splits a PC/SC multi-string (names separated by NUL, ended by two NULs).
    static func splitMultiString(_ buffer: [CChar]) -> [String] {
        buffer.split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    static let pnpNotification = String(cString: cpcsc_pnp_notification())
}

/// One entry of a `SCardGetStatusChange` call, in Swift terms.
struct ReaderStateSnapshot: Sendable {
    var reader: String
    var currentState: DWORD
    var eventState: DWORD = 0
    var atr: [UInt8] = []

    init(reader: String, currentState: DWORD = DWORD(SCARD_STATE_UNAWARE)) {
        self.reader = reader
        self.currentState = currentState
    }

    var isPresent: Bool { eventState & DWORD(SCARD_STATE_PRESENT) != 0 }
    var isChanged: Bool { eventState & DWORD(SCARD_STATE_CHANGED) != 0 }
    var isGone: Bool { eventState & DWORD(SCARD_STATE_UNKNOWN | SCARD_STATE_UNAVAILABLE) != 0 }
    var isMute: Bool { eventState & DWORD(SCARD_STATE_MUTE) != 0 }
    var isExclusive: Bool { eventState & DWORD(SCARD_STATE_EXCLUSIVE) != 0 }
    var isInUse: Bool { eventState & DWORD(SCARD_STATE_INUSE) != 0 }

    /// What to pass as `currentState` next time: the event state without the change bit.
    var acknowledged: DWORD { eventState & ~DWORD(SCARD_STATE_CHANGED) }
}
