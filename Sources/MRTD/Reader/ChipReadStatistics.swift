import APDU
import Synchronization

/// What reading a chip cost: APDUs and bytes per phase, and how often it had to recover.
public struct ChipReadStatistics: Hashable, Sendable, CustomStringConvertible {
    /// A stage of reading.
    public enum Phase: String, Hashable, Sendable, CaseIterable {
        /// Reading EF.CardAccess before access control.
        case cardAccess
        /// Selecting the application and BAC.
        case accessControl
        /// SELECT and READ BINARY of the LDS files.
        case reading
        /// Re-establishing a session after lost sync or a lost card.
        case recovery
        /// INTERNAL AUTHENTICATE.
        case activeAuthentication
    }

    /// Commands sent and bytes each way, as the transport carried them (protected form),
    /// and where the time went.
    public struct Counts: Hashable, Sendable {
        public var commands = 0
        public var bytesSent = 0
        public var bytesReceived = 0
        /// Time spent waiting for the transport (the reader, the radio and the chip).
        public var transportTime: Duration = .zero
        /// Time spent in the reader's own code before each command: building and protecting
        /// it, checking and decrypting the previous answer, the access control's cryptography.
        public var processingTime: Duration = .zero

        public init() {}

        /// Adds `other` to these counts.
        public mutating func add(_ other: Counts) {
            commands += other.commands
            bytesSent += other.bytesSent
            bytesReceived += other.bytesReceived
            transportTime += other.transportTime
            processingTime += other.processingTime
        }
    }

    public var phases: [Phase: Counts] = [:]
    /// The reading phase per file: its SELECTs and READ BINARYs.
    public var files: [LDSFile: Counts] = [:]
    /// Sessions re-established because secure messaging lost sync or a length was refused.
    public var sessionRestarts = 0
    /// Times the card was lost and the caller's reconnect brought it back.
    public var reconnects = 0
    /// The read length in use at the end.
    public var finalReadLength = 0

    public init() {}

    /// All phases together.
    public var total: Counts {
        phases.values.reduce(into: Counts()) { $0.add($1) }
    }

    public var description: String {
        let parts = Phase.allCases.compactMap { phase in
            phases[phase].map { "\(phase.rawValue): \($0.commands) APDUs, \($0.bytesSent)/\($0.bytesReceived) bytes" }
        }
        return parts.joined(separator: "; ") + "; restarts \(sessionRestarts), reconnects \(reconnects)"
    }
}

/// Counts what passes through to the transport under the current phase (and file), and
/// times the wait for each exchange and the reader's own work between exchanges.
final class CountingTransport: APDUTransport {
    private struct State {
        var phase = ChipReadStatistics.Phase.cardAccess
        var file: LDSFile?
        var statistics = ChipReadStatistics()
        /// When the last exchange ended (or counting began).
        var idleSince: ContinuousClock.Instant

        mutating func update(_ body: (inout ChipReadStatistics.Counts) -> Void) {
            body(&statistics.phases[phase, default: .init()])
            if phase == .reading, let file { body(&statistics.files[file, default: .init()]) }
        }
    }

    let base: any APDUTransport
    private let clock = ContinuousClock()
    private let state: Mutex<State>

    init(_ base: any APDUTransport, statistics: ChipReadStatistics = ChipReadStatistics()) {
        self.base = base
        state = Mutex(State(statistics: statistics, idleSince: ContinuousClock().now))
    }

    var supportsExtendedLength: Bool? { base.supportsExtendedLength }

    var phase: ChipReadStatistics.Phase {
        get { state.withLock { $0.phase } }
        set { state.withLock { $0.phase = newValue } }
    }

    /// The file the reading phase is working on: set when the reader selects it.
    var file: LDSFile? {
        get { state.withLock { $0.file } }
        set { state.withLock { $0.file = newValue } }
    }

    var statistics: ChipReadStatistics { state.withLock { $0.statistics } }

    func transmit(_ command: CommandAPDU) async throws -> ResponseAPDU {
        let sent = (try? command.encoded().count) ?? 0
        let start = clock.now
        state.withLock { state in
            let processing = start - state.idleSince
            state.update {
                $0.commands += 1
                $0.bytesSent += sent
                $0.processingTime += processing
            }
        }
        defer {
            let end = clock.now
            state.withLock { state in
                state.update { $0.transportTime += end - start }
                state.idleSince = end
            }
        }
        let response = try await base.transmit(command)
        state.withLock { state in state.update { $0.bytesReceived += response.data.count + 2 } }
        return response
    }
}
