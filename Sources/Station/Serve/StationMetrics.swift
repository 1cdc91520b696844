public import Capture
public import CoreMetrics
import Foundation
import KioskTime

/// The station's metrics (swift-metrics), rendered as Prometheus text on `/metrics`.
///
/// Labels carry no personal data: outcomes, step names, device names.
public struct StationMetrics: Sendable {
    let factory: any MetricsFactory

    /// - Parameter factory: where the metrics go; the Prometheus registry in `serve`, a
    ///   no-op in tests that do not look.
    public init(factory: any MetricsFactory = NOOPMetricsHandler.instance) {
        self.factory = factory
    }

    /// Records what the station machine counted.
    func record(_ metric: StationMachine.Metric) {
        switch metric {
        case .journeyStarted:
            Counter(label: "idkiosk_journeys_started_total", factory: factory).increment()
        case .journeyEnded(let outcome):
            Counter(label: "idkiosk_journeys_total", dimensions: [("outcome", outcome)], factory: factory).increment()
        case .journeyDuration(let duration):
            Timer(label: "idkiosk_journey_duration_seconds", factory: factory).recordNanoseconds(duration.wholeNanoseconds)
        case .stepDuration(let step, let duration):
            Timer(label: "idkiosk_step_duration_seconds", dimensions: [("step", step)], factory: factory).recordNanoseconds(duration.wholeNanoseconds)
        case .imageCaptured:
            Counter(label: "idkiosk_images_captured_total", factory: factory).increment()
        case .flashFired:
            Counter(label: "idkiosk_flash_switches_total", factory: factory).increment()
        case .deviceReconnect(let device):
            deviceReconnect(device)
        }
    }

    public func chipRead(duration: Duration, commands: Int, bytes: Int) {
        Timer(label: "idkiosk_chip_read_duration_seconds", factory: factory).recordNanoseconds(duration.wholeNanoseconds)
        Recorder(label: "idkiosk_chip_read_apdus", factory: factory).record(commands)
        Counter(label: "idkiosk_chip_bytes_total", factory: factory).increment(by: bytes)
    }

    public func framesProcessed(_ count: Int, dropped: Int) {
        Counter(label: "idkiosk_frames_processed_total", factory: factory).increment(by: count)
        if dropped > 0 { Counter(label: "idkiosk_frames_dropped_total", factory: factory).increment(by: dropped) }
    }

    public func deviceReconnect(_ device: String) {
        Counter(label: "idkiosk_device_reconnects_total", dimensions: [("device", device)], factory: factory).increment()
    }

    public func outbox(depth: Int, bytes: Int, oldestAge: Duration?) {
        Gauge(label: "idkiosk_outbox_depth", factory: factory).record(depth)
        Gauge(label: "idkiosk_outbox_bytes", factory: factory).record(bytes)
        Gauge(label: "idkiosk_outbox_oldest_age_seconds", factory: factory).record(oldestAge?.inSeconds ?? 0)
    }
}

extension StationMetrics: CaptureMetrics {}
