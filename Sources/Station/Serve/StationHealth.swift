public import Backend
import Foundation
import KioskTime

/// What `/health` answers and `STATUS=` says: liveness (the loop's heartbeat is recent) and
/// readiness (every device is there), per device.
public struct StationHealth: Codable, Sendable, Hashable {
    public struct Outbox: Codable, Sendable, Hashable {
        public var records: Int
        public var bytes: Int
    }

    public var live: Bool
    public var ready: Bool
    public var phase: String
    public var devices: [DeviceHealth]
    public var outbox: Outbox?
    /// Seconds since the loop last proved it is alive.
    public var heartbeatAge: Double

    /// One line for `systemctl status`.
    public var statusLine: String {
        let devices = self.devices.map { "\($0.name) \($0.ready ? "ok" : "MISSING")" }.joined(separator: ", ")
        let outbox = self.outbox.map { "; outbox \($0.records) waiting" } ?? ""
        return "\(phase); \(devices)\(outbox)"
    }
}

extension StationLoop {
    /// The station's health now.
    /// - Parameter maximumHeartbeatAge: older than this, the loop counts as stuck.
    public func health(outbox: Backend.Outbox?, maximumHeartbeatAge: Duration = .seconds(5)) async -> StationHealth {
        let age = ContinuousClock.now - lastHeartbeat
        let devices = deviceHealth
        var box: StationHealth.Outbox?
        if let outbox, let stats = try? await outbox.stats() { box = .init(records: stats.records, bytes: stats.bytes) }
        let seconds = age.inSeconds
        let live = age < maximumHeartbeatAge && currentPhase != .stopped
        return StationHealth(
            live: live, ready: live && devices.allSatisfy(\.ready) && currentPhase != .outOfService,
            phase: currentPhase.rawValue, devices: devices, outbox: box, heartbeatAge: seconds)
    }
}
