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
    /// The vision models as loaded at start: a missing or corrupt one is said here (and the
    /// station goes on without what it does: no chip key from the MRZ without the MRZ model).
    public var models: [ModelStatus]

    /// One line for `systemctl status`.
    public var statusLine: String {
        let devices = self.devices.map { "\($0.device.rawValue) \($0.available ? "ok" : "MISSING")" }.joined(separator: ", ")
        let outbox = self.outbox.map { "; outbox \($0.records) waiting" } ?? ""
        let models = self.models.filter { !$0.available }.map { "; model \($0.name) MISSING" }.joined()
        return "\(phase); \(devices)\(outbox)\(models)"
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
            phase: phase.rawValue, devices: devices, outbox: box, heartbeatAge: seconds, models: settings.models)
    }
}

/// One vision model as the station loaded it at start.
public struct ModelStatus: Codable, Sendable, Hashable {
    /// The model's file name, e.g. `mrz-ocrb-v1.bin`.
    public var name: String
    public var available: Bool
    /// Why it is not available (missing, corrupt, wrong version), with the path: what a
    /// technician acts on.
    public var detail: String?
    /// How long loading it took, in milliseconds.
    public var loadMilliseconds: Double?
    /// What it costs in memory, in bytes (its files' size; the face models').
    public var memoryBytes: Int?

    public init(name: String, available: Bool, detail: String? = nil, loadMilliseconds: Double? = nil, memoryBytes: Int? = nil) {
        self.name = name
        self.available = available
        self.detail = detail
        self.loadMilliseconds = loadMilliseconds
        self.memoryBytes = memoryBytes
    }
}
