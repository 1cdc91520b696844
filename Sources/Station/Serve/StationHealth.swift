public import Backend
public import Display
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
    /// Every device as last seen, as the out-of-service screen lists them.
    public var devices: [DeviceStatus]
    public var outbox: Outbox?
    /// Seconds since the loop last proved it is alive.
    public var heartbeatAge: Double

    /// One line for `systemctl status`.
    public var statusLine: String {
        let devices = self.devices.map { "\($0.device.rawValue) \($0.available ? "ok" : "MISSING")" }.joined(separator: ", ")
        let outbox = self.outbox.map { "; outbox \($0.records) waiting" } ?? ""
        return "\(phase); \(devices)\(outbox)"
    }
}

extension StationLoop {
    /// The station's health now.
    /// - Parameter maximumHeartbeatAge: older than this, the loop counts as stuck.
    public func health(outbox: Backend.Outbox?, maximumHeartbeatAge: Duration = .seconds(5)) async -> StationHealth {
        let age = heartbeatAge
        let devices = deviceStatus
        let phase = currentPhase
        var box: StationHealth.Outbox?
        if let outbox, let stats = try? await outbox.stats() { box = .init(records: stats.records, bytes: stats.bytes) }
        let seconds = age.inSeconds
        let live = age < maximumHeartbeatAge && phase != .stopped
        return StationHealth(
            live: live, ready: live && devices.allSatisfy(\.available) && phase != .outOfService,
            phase: phase.rawValue, devices: devices, outbox: box, heartbeatAge: seconds)
    }
}
