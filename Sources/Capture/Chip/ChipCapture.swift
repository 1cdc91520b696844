import KioskTime
import Foundation
public import Logging
public import MRTD
public import ScanFlow
import SmartCard
import Synchronization

/// The chip capture, through pcscd: find the document on the reader, connect, read the
/// chip through ``MRTD/ChipReader``, wait for a document lifted mid-read and resume, verify
/// it (Passive Authentication when a trust store is set).
///
/// One ``SmartCard/ReaderMonitor`` feeds both the station loop (a document placed on the
/// reader starts a journey) and the read (a lifted document's return is seen without
/// polling). Every wait (for a document, for its return, the half-second between attempts to
/// reconnect) is on the injected clock. `idkiosk read-chip` reads through the same code.
public final class ChipCapture: ChipDevice, Sendable {
    public struct Settings: Sendable {
        /// Part of the reader's name, case-insensitive; empty takes the first reader.
        public var readerPattern: String
        public var exclusive: Bool
        public var transmitTimeout: Duration
        /// How long a lifted document is waited for before the read fails (and, with
        /// `waitsForDocument`, a document at the start).
        public var returnTimeout: Duration
        /// Whether a read waits for a document to be placed (the station), or needs one on
        /// the reader when it starts (`idkiosk read-chip`).
        public var waitsForDocument: Bool

        public init(
            readerPattern: String = "", exclusive: Bool = true, transmitTimeout: Duration = .seconds(5), returnTimeout: Duration = .seconds(60),
            waitsForDocument: Bool = true
        ) {
            self.readerPattern = readerPattern
            self.exclusive = exclusive
            self.transmitTimeout = transmitTimeout
            self.returnTimeout = returnTimeout
            self.waitsForDocument = waitsForDocument
        }
    }

    private struct State {
        var readers: [String: Bool] = [:]  // reader -> card present
        var serviceUp = false
        var watchers: [Int: AsyncStream<ReaderPresence>.Continuation] = [:]
        var cardWaiters: [Int: CheckedContinuation<String, Never>] = [:]
        /// Documents placed on a matching reader since the start: a lifted document's return
        /// is the next one, whatever the reader's state said a moment before.
        var insertions = 0
        var next = 0
        var monitor: Task<Void, Never>?
    }

    let settings: Settings
    let trustStore: TrustStore?
    let metrics: (any CaptureMetrics)?
    let clock: any Clock<Duration>
    let logger: Logger
    private let state = Mutex(State())

    /// - Parameters:
    ///   - trustStore: the CSCAs for Passive Authentication; nil leaves it to the backend.
    ///   - metrics: each completed read's time, commands and bytes.
    ///   - clock: where every wait sleeps and the read is timed.
    public init(
        settings: Settings, trustStore: TrustStore?, metrics: (any CaptureMetrics)? = nil, clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger
    ) {
        self.settings = settings
        self.trustStore = trustStore
        self.metrics = metrics
        self.clock = clock
        self.logger = logger
    }

    deinit { stopWatching() }

    /// Stops watching the readers: the monitor's wait in libpcsclite is cancelled and its
    /// thread leaves (``ReaderMonitor/waitUntilStopped(limit:)`` waits for that). A command
    /// calls this before it exits rather than trust the capture to be released in time.
    public func stopWatching() {
        state.withLock {
            $0.monitor?.cancel()
            $0.monitor = nil
        }
    }

    func matches(_ reader: String) -> Bool {
        settings.readerPattern.isEmpty || reader.lowercased().contains(settings.readerPattern.lowercased())
    }

    /// Starts watching the readers (once).
    public func start() {
        let needed = state.withLock { state -> Bool in
            guard state.monitor == nil else { return false }
            state.monitor = Task {}  // placeholder, replaced below
            return true
        }
        guard needed else { return }
        let task = Task { [weak self, logger] in
            for await event in ReaderMonitor.events(logger: logger) {
                guard let self else { return }
                self.handle(event)
            }
        }
        state.withLock { $0.monitor = task }
    }

    private func handle(_ event: ReaderEvent) {
        var out: [ReaderPresence] = []
        var wake: [CheckedContinuation<String, Never>] = []
        var wakeReader = ""
        let watchers = state.withLock { state -> [AsyncStream<ReaderPresence>.Continuation] in
            let hadReader = state.readers.keys.contains { matches($0) }
            switch event {
            case .readerAdded(let reader) where matches(reader):
                state.readers[reader] = false
            case .readerRemoved(let reader):
                state.readers[reader] = nil
            case .cardInserted(let reader, _) where matches(reader):
                state.readers[reader] = true
                state.insertions += 1
                out.append(.cardPresent(true))
                wake = Array(state.cardWaiters.values)
                wakeReader = reader
                state.cardWaiters = [:]
            case .cardRemoved(let reader) where matches(reader):
                state.readers[reader] = false
                out.append(.cardPresent(false))
            case .serviceLost:
                state.serviceUp = false
                state.readers = [:]
            case .serviceRestored:
                state.serviceUp = true
            default:
                break
            }
            let hasReader = state.readers.keys.contains { matches($0) }
            if hadReader != hasReader { out.insert(.readerAvailable(hasReader), at: 0) }
            return Array(state.watchers.values)
        }
        for continuation in wake { continuation.resume(returning: wakeReader) }
        for presence in out {
            for watcher in watchers { watcher.yield(presence) }
        }
    }

    public func presence() -> AsyncStream<ReaderPresence> {
        start()
        let (stream, continuation) = AsyncStream.makeStream(of: ReaderPresence.self)
        let id = state.withLock { state in
            state.next += 1
            state.watchers[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) } }
        return stream
    }

    public func probe() async -> DeviceProbe {
        do {
            let context = try PCSCContext(logger: logger)
            let names = try context.readers(matching: settings.readerPattern.isEmpty ? nil : settings.readerPattern)
            if names.isEmpty {
                return .unavailable(
                    fault: settings.readerPattern.isEmpty ? "no contactless reader attached" : "no reader matches '\(settings.readerPattern)'")
            }
            return .ready
        } catch {
            return .unavailable(fault: "\(error.message); run `idkiosk diag nfc`")
        }
    }

    // MARK: Waiting for a document

    /// The reader with a document on it, waiting up to `timeout` for one.
    private func readerWithCard(timeout: Duration) async -> String? {
        await waitForDocument(timeout: timeout) { state in state.readers.first { $0.value }?.key }
    }

    /// Waits until more than `count` documents have been placed, up to `timeout`.
    private func waitForInsertion(after count: Int, timeout: Duration) async -> Bool {
        await waitForDocument(timeout: timeout) { state in state.insertions > count ? "inserted" : nil } != nil
    }

    /// Waits until `satisfied` says so, checked now and at every document placed on a
    /// matching reader, up to `timeout` on the clock; `nil` when the time ran out.
    private func waitForDocument(timeout: Duration, _ satisfied: @escaping @Sendable (State) -> String?) async -> String? {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        let timer = Task { [weak self, clock] in
            try? await clock.sleep(for: timeout, tolerance: nil)
            let waiter = self?.state.withLock { $0.cardWaiters.removeValue(forKey: id) }
            waiter?.resume(returning: "")
        }
        defer { timer.cancel() }
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let now = state.withLock { state -> String? in
                if let answer = satisfied(state) { return answer }
                state.cardWaiters[id] = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
        return answer.isEmpty ? nil : answer
    }

    /// The reader to read from: with `waitsForDocument` the first with a document, waited for
    /// through the monitor; without, the first matching reader with a document now, asked of
    /// pcscd directly (the monitor may not have reported the readers yet).
    private func documentReader() async throws(ChipDeviceError) -> String {
        if settings.waitsForDocument {
            guard let reader = await readerWithCard(timeout: settings.returnTimeout) else {
                throw ChipDeviceError(.unreadable, "no document was placed on the reader")
            }
            return reader
        }
        do throws(SmartCardError) {
            let context = try PCSCContext(logger: logger)
            let pattern = settings.readerPattern.isEmpty ? nil : settings.readerPattern
            let names = try context.readers(matching: pattern)
            guard !names.isEmpty else {
                throw SmartCardError(kind: .readerNotFound, message: pattern.map { "no reader matches '\($0)'" } ?? "no reader attached")
            }
            for name in names where try context.state(of: name).cardPresent { return name }
            throw SmartCardError(kind: .noCard, message: "no document on \(names.count == 1 ? names[0] : "any reader")")
        } catch {
            throw Self.failure(error)
        }
    }

    private static func failure(_ error: SmartCardError) -> ChipDeviceError {
        let kind: ChipDeviceError.Kind = error.kind == .readerNotFound || error.kind == .serviceUnavailable ? .readerMissing : .unreadable
        return ChipDeviceError(kind, error.message, cause: .smartCard(error))
    }

    // MARK: Reading

    public func read(key: ScanFlow.ChipAccessKey, report: @escaping @Sendable (ChipReport) -> Void) async throws(ChipDeviceError) -> ChipReading {
        let password: PACE.Password
        switch key {
        case .mrz(let number, let birth, let expiry):
            guard let mrzKey = try? MRZKey(documentNumber: number, birthDate: birth, expiryDate: expiry) else {
                throw ChipDeviceError(.accessDenied, "the MRZ does not make a chip key")
            }
            password = .mrz(mrzKey)
        case .can(let number):
            guard let can = try? CardAccessNumber(number) else { throw ChipDeviceError(.accessDenied, "the CAN is not 6 digits") }
            password = .can(can)
        }
        return try await read(password: password, report: report)
    }

    /// Reads the chip of the document on the reader and verifies it.
    /// - Parameters:
    ///   - password: the MRZ key or the card access number.
    ///   - report: waiting, started, progress, a document lifted and put back.
    /// - Returns: the files, the checks and how the read went.
    /// - Throws: ``ChipDeviceError``, with the PC/SC or chip failure as its cause.
    public func read(password: PACE.Password, report: @escaping @Sendable (ChipReport) -> Void) async throws(ChipDeviceError) -> ChipReading {
        start()
        report(.waitingForCard)
        let readerName = try await documentReader()
        let connection: CardConnection
        do {
            let context = try PCSCContext(logger: logger)
            connection = try await context.connect(
                reader: readerName, share: settings.exclusive ? .exclusive : .shared, timeout: settings.transmitTimeout)
        } catch {
            throw Self.failure(error)
        }
        report(.started)
        let reader: ChipReader
        let reconnect = self.reconnect(connection, report: report)
        let progress = Self.progress(report)
        switch password {
        case .mrz(let key):
            reader = ChipReader(transport: connection, key: key, reconnect: reconnect, progress: progress, logger: logger)
        case .can(let can):
            reader = ChipReader(transport: connection, cardAccessNumber: can, reconnect: reconnect, progress: progress, logger: logger)
        }
        let stopwatch = Stopwatch(clock)
        let contents: ChipContents
        do {
            contents = try await reader.read()
        } catch {
            await connection.disconnect(.reset)
            throw ChipDeviceError(error.code == .accessDenied ? .accessDenied : .unreadable, error.description, cause: .chip(error))
        }
        let duration = stopwatch.elapsed
        await connection.disconnect(.reset)
        let total = contents.statistics.total
        metrics?.chipRead(duration: duration, commands: total.commands, bytes: total.bytesReceived)
        let passive = trustStore.map { PassiveAuthentication.verify(files: contents.files, trustStore: $0, at: Int64(Date().timeIntervalSince1970)) }
        return ChipReading(reader: readerName, contents: contents, passiveAuthentication: passive, duration: duration)
    }

    /// How the reader gets a lifted document back: tell the person, then try to reconnect,
    /// and on failure try again when a document is placed or after half a second, until the
    /// time for its return is up. The monitor may not have seen the document go yet, and
    /// pcscd may not report a document lifted and put back between two of its polls at all.
    private func reconnect(_ connection: CardConnection, report: @escaping @Sendable (ChipReport) -> Void) -> ChipReader.Reconnect {
        let returnTimeout = settings.returnTimeout
        return { [weak self] in
            report(.cardLost)
            guard let self else { throw ChipDeviceError(.unreadable, "the station is shutting down") }
            let stopwatch = Stopwatch(self.clock)
            while stopwatch.elapsed < returnTimeout {
                let seen = self.state.withLock { $0.insertions }
                do {
                    try await connection.reconnect()
                    report(.resumed)
                    return connection
                } catch {
                    _ = await self.waitForInsertion(after: seen, timeout: min(.milliseconds(500), returnTimeout - stopwatch.elapsed))
                }
            }
            throw ChipDeviceError(.unreadable, "the document did not come back to the reader")
        }
    }

    /// Progress as whole percentages, reported when the percentage changes.
    private static func progress(_ report: @escaping @Sendable (ChipReport) -> Void) -> @Sendable (ChipReadProgress) -> Void {
        let lastPercent = Mutex(-1)
        return { p in
            let percent = Int((p.fraction * 100).rounded(.down))
            let changed = lastPercent.withLock { last -> Bool in
                guard percent != last else { return false }
                last = percent
                return true
            }
            if changed { report(.progress(percent: percent, file: p.file)) }
        }
    }
}
