import Backend
import Foundation
public import Logging
public import MRTD
public import ScanFlow
import SmartCard
import Synchronization

/// The contactless reader through pcscd: one ``SmartCard/ReaderMonitor`` feeds both the
/// station loop (a document placed on the reader starts a journey) and the chip read (a
/// document lifted mid-read is waited for without polling).
public final class PCSCChipDevice: ChipDevice, Sendable {
    public struct Settings: Sendable {
        /// Part of the reader's name, case-insensitive; empty takes the first reader.
        public var readerPattern: String
        public var exclusive: Bool
        public var transmitTimeout: Duration
        /// How long a lifted document is waited for before the read fails.
        public var returnTimeout: Duration

        public init(readerPattern: String = "", exclusive: Bool = true, transmitTimeout: Duration = .seconds(5), returnTimeout: Duration = .seconds(60)) {
            self.readerPattern = readerPattern
            self.exclusive = exclusive
            self.transmitTimeout = transmitTimeout
            self.returnTimeout = returnTimeout
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
    let metrics: StationMetrics
    let logger: Logger
    private let state = Mutex(State())

    public init(settings: Settings, trustStore: TrustStore?, metrics: StationMetrics, logger: Logger) {
        self.settings = settings
        self.trustStore = trustStore
        self.metrics = metrics
        self.logger = logger
    }

    deinit { state.withLock { $0.monitor?.cancel() } }

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

    public func probe() async -> DeviceHealth {
        do {
            let context = try PCSCContext(logger: logger)
            let names = try context.readers(matching: settings.readerPattern.isEmpty ? nil : settings.readerPattern)
            if names.isEmpty {
                return DeviceHealth(
                    name: "reader", ready: false,
                    detail: settings.readerPattern.isEmpty ? "no contactless reader attached" : "no reader matches '\(settings.readerPattern)'")
            }
            return DeviceHealth(name: "reader", ready: true)
        } catch {
            return DeviceHealth(name: "reader", ready: false, detail: "\(error.message); run `idkiosk diag nfc`")
        }
    }

    /// The reader with a document on it, waiting up to `timeout` for one.
    private func readerWithCard(timeout: Duration) async -> String? {
        await waitForDocument(timeout: timeout) { state in state.readers.first { $0.value }?.key }
    }

    /// Waits until more than `count` documents have been placed, up to `timeout`.
    private func waitForInsertion(after count: Int, timeout: Duration) async -> Bool {
        await waitForDocument(timeout: timeout) { state in state.insertions > count ? "inserted" : nil } != nil
    }

    /// Waits until `satisfied` says so, checked now and at every document placed on a
    /// matching reader, up to `timeout`; `nil` when the time ran out.
    private func waitForDocument(timeout: Duration, _ satisfied: @escaping @Sendable (State) -> String?) async -> String? {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
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

    public func read(key: ScanFlow.ChipAccessKey, report: @escaping @Sendable (ChipReport) -> Void) async throws(ChipDeviceError) -> ChipOutcome {
        start()
        report(.waitingForCard)
        guard let readerName = await readerWithCard(timeout: settings.returnTimeout) else {
            throw ChipDeviceError(.unreadable, "no document was placed on the reader")
        }
        let connection: CardConnection
        do {
            let context = try PCSCContext(logger: logger)
            connection = try await context.connect(
                reader: readerName, share: settings.exclusive ? .exclusive : .shared, timeout: settings.transmitTimeout)
        } catch {
            throw ChipDeviceError(error.kind == .readerNotFound || error.kind == .serviceUnavailable ? .readerMissing : .unreadable, error.message)
        }
        report(.started)
        let returnTimeout = settings.returnTimeout
        let reconnect: ChipReader.Reconnect = { [weak self] in
            report(.cardLost)
            guard let self else { throw ChipDeviceError(.unreadable, "the station is shutting down") }
            // The monitor may not have seen the document go yet, and pcscd may not report a
            // document lifted and put back between two of its polls at all: try, and on failure
            // try again when a document is placed or after half a second, until the time for
            // its return is up.
            let clock = ContinuousClock()
            let deadline = clock.now + returnTimeout
            while clock.now < deadline {
                let seen = self.state.withLock { $0.insertions }
                do {
                    try await connection.reconnect()
                    report(.resumed)
                    return connection
                } catch {
                    _ = await self.waitForInsertion(after: seen, timeout: min(.milliseconds(500), deadline - clock.now))
                }
            }
            throw ChipDeviceError(.unreadable, "the document did not come back to the reader")
        }
        let lastPercent = Mutex(-1)
        let progress: @Sendable (ChipReadProgress) -> Void = { p in
            let percent = Int((p.fraction * 100).rounded(.down))
            let changed = lastPercent.withLock { last -> Bool in
                guard percent != last else { return false }
                last = percent
                return true
            }
            if changed { report(.progress(percent: percent)) }
        }
        let reader: ChipReader
        switch key {
        case .mrz(let number, let birth, let expiry):
            guard let mrzKey = try? MRZKey(documentNumber: number, birthDate: birth, expiryDate: expiry) else {
                throw ChipDeviceError(.accessDenied, "the MRZ does not make a chip key")
            }
            reader = ChipReader(transport: connection, key: mrzKey, reconnect: reconnect, progress: progress, logger: logger)
        case .can(let number):
            guard let can = try? CardAccessNumber(number) else { throw ChipDeviceError(.accessDenied, "the CAN is not 6 digits") }
            reader = ChipReader(transport: connection, cardAccessNumber: can, reconnect: reconnect, progress: progress, logger: logger)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let contents: ChipContents
        do {
            contents = try await reader.read()
        } catch {
            await connection.disconnect(.reset)
            throw ChipDeviceError(error.code == .accessDenied ? .accessDenied : .unreadable, error.description)
        }
        await connection.disconnect(.reset)
        let total = contents.statistics.total
        metrics.chipRead(duration: clock.now - start, commands: total.commands, bytes: total.bytesReceived)
        return Self.outcome(contents, trustStore: trustStore)
    }

    /// The upload and the station's own verdict: passive authentication against the trust
    /// store (not executed without one), active authentication as the chip answered.
    static func outcome(_ contents: ChipContents, trustStore: TrustStore?) -> ChipOutcome {
        var groups: [String: Data] = [:]
        for (file, bytes) in contents.files {
            if file == .sod { groups["SOD"] = Data(bytes) } else if file == .com { groups["COM"] = Data(bytes) } else if let number = file.dataGroupNumber {
                groups["DG\(number)"] = Data(bytes)
            }
        }
        var pa = Decision.NOT_EXECUTED
        if let trustStore {
            switch PassiveAuthentication.verify(files: contents.files, trustStore: trustStore, at: Int64(Date().timeIntervalSince1970)).outcome {
            case .passed: pa = .PASSED
            case .failed: pa = .REJECTED
            case .notSupported: pa = .NOT_EXECUTED
            }
        }
        let aa: Decision? = contents.activeAuthentication.map {
            switch $0.outcome {
            case .passed: .PASSED
            case .failed: .REJECTED
            case .notSupported: .NOT_EXECUTED
            }
        }
        let access = contents.accessControl.rawValue.uppercased()
        let data = ChipData(dataGroups: groups, stationVerification: .init(passiveAuthentication: pa, activeAuthentication: aa, accessControl: access))
        let summary = "\(access), PA \(pa.rawValue)" + (aa.map { ", AA \($0.rawValue)" } ?? "") + ", \(contents.statistics.total.commands) APDUs"
        return ChipOutcome(chipData: data, summary: summary)
    }
}
