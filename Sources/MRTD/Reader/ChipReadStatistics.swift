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

    /// Commands sent and bytes each way, as the transport carried them (protected form).
    public struct Counts: Hashable, Sendable {
        public var commands = 0
        public var bytesSent = 0
        public var bytesReceived = 0

        public init() {}
    }

    public var phases: [Phase: Counts] = [:]
    /// Sessions re-established because secure messaging lost sync or a length was refused.
    public var sessionRestarts = 0
    /// Times the card was lost and the caller's reconnect brought it back.
    public var reconnects = 0
    /// The read length in use at the end.
    public var finalReadLength = 0

    public init() {}

    /// All phases together.
    public var total: Counts {
        phases.values.reduce(into: Counts()) {
            $0.commands += $1.commands
            $0.bytesSent += $1.bytesSent
            $0.bytesReceived += $1.bytesReceived
        }
    }

    public var description: String {
        let parts = Phase.allCases.compactMap { phase in
            phases[phase].map { "\(phase.rawValue): \($0.commands) APDUs, \($0.bytesSent)/\($0.bytesReceived) bytes" }
        }
        return parts.joined(separator: "; ") + "; restarts \(sessionRestarts), reconnects \(reconnects)"
    }
}

/// Counts what passes through to the transport under the current phase.
final class CountingTransport: APDUTransport {
    let base: any APDUTransport
    private let state = Mutex<(phase: ChipReadStatistics.Phase, statistics: ChipReadStatistics)>((.cardAccess, ChipReadStatistics()))

    init(_ base: any APDUTransport, statistics: ChipReadStatistics = ChipReadStatistics()) {
        self.base = base
        state.withLock { $0.statistics = statistics }
    }

    var supportsExtendedLength: Bool? { base.supportsExtendedLength }

    var phase: ChipReadStatistics.Phase {
        get { state.withLock { $0.phase } }
        set { state.withLock { $0.phase = newValue } }
    }

    var statistics: ChipReadStatistics { state.withLock { $0.statistics } }

    func transmit(_ command: CommandAPDU) async throws -> ResponseAPDU {
        let sent = (try? command.encoded().count) ?? 0
        state.withLock { $0.statistics.phases[$0.phase, default: .init()].commands += 1; $0.statistics.phases[$0.phase, default: .init()].bytesSent += sent }
        let response = try await base.transmit(command)
        state.withLock { $0.statistics.phases[$0.phase, default: .init()].bytesReceived += response.data.count + 2 }
        return response
    }
}
