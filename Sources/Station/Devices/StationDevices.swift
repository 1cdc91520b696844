public import Backend
import Display
public import ScanFlow

/// What the station loop asks of the camera: run it for one part until cancelled.
///
/// The real one is ``CameraCapture`` (a V4L2 camera or a recording); tests use fakes.
public protocol CaptureDevice: Sendable {
    /// Runs the camera in `request.mode` until the task is cancelled, reporting through
    /// `report`: `started` once frames flow, then updates and captured images. A camera
    /// that fails reports `lost` and returns.
    func capture(_ request: CaptureRequest, report: @escaping @Sendable (CaptureEvent) -> Void) async

    /// Whether the camera can be opened now (for the out-of-service screen and its recovery).
    func probe() async -> DeviceHealth
}

/// One part to capture.
public struct CaptureRequest: Sendable {
    public var mode: Scan.Mode
    public var part: Credential.Part
    /// Set by the loop when the person presses the shutter (manual modes).
    public var trigger: CaptureTrigger
    /// Whether the station should light the document for a flash/no-flash pair.
    public var useFlash: Bool

    public init(mode: Scan.Mode, part: Credential.Part, trigger: CaptureTrigger, useFlash: Bool) {
        self.mode = mode
        self.part = part
        self.trigger = trigger
        self.useFlash = useFlash
    }
}

/// What a running capture says.
public enum CaptureEvent: Sendable {
    case started
    case update(Scan.Update)
    case image(CapturedImage, isLastOfSide: Bool)
    /// An extra image of the same part (the flash image of a pair, liveness frames): uploaded, not shown.
    case evidence(PartClassifier, [UInt8])
    /// The camera stopped delivering or went away; `reason` is for a technician.
    case lost(reason: String)
}

/// How a device is, for `/health`, the out-of-service screen and `STATUS=`.
public struct DeviceHealth: Hashable, Sendable, Codable {
    public var name: String
    public var ready: Bool
    /// What is wrong and what to do, for a technician; empty when ready.
    public var detail: String

    public init(name: String, ready: Bool, detail: String = "") {
        self.name = name
        self.ready = ready
        self.detail = detail
    }
}

/// What the station loop asks of the contactless reader.
public protocol ChipDevice: Sendable {
    /// Waits for a document on the reader, reads its chip with `key` and verifies it.
    /// A document lifted mid-read is waited for and the read resumes.
    func read(key: ChipAccessKey, report: @escaping @Sendable (ChipReport) -> Void) async throws(ChipDeviceError) -> ChipOutcome

    /// Documents placed on and lifted off the reader, and the reader's own presence.
    func presence() -> AsyncStream<ReaderPresence>

    func probe() async -> DeviceHealth
}

public enum ReaderPresence: Hashable, Sendable {
    case readerAvailable(Bool)
    case cardPresent(Bool)
}

public enum ChipReport: Hashable, Sendable {
    case waitingForCard
    case started
    case progress(percent: Int)
    /// The document left the reader mid-read: ask the person to put it back.
    case cardLost
    case resumed
}

/// What a chip read produced: the data to upload and the station's own verdict.
public struct ChipOutcome: Sendable, CustomStringConvertible {
    public var chipData: ChipData
    public var summary: String

    public init(chipData: ChipData, summary: String) {
        self.chipData = chipData
        self.summary = summary
    }

    public var description: String { "ChipOutcome(\(summary))" }
}

/// Why a chip read ended without data; `message` names no personal data.
public struct ChipDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// No reader, or pcscd is not running.
        case readerMissing
        /// The key does not open the chip (wrong MRZ or CAN).
        case accessDenied
        /// The chip could not be read (lost for good, refused, malformed).
        case unreadable
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}

extension DeviceStatus {
    /// A device's own report as the display and `/health` list it.
    init(_ health: DeviceHealth) {
        self.init(DeviceStatus.Device(rawValue: health.name) ?? .camera, available: health.ready, detail: health.detail.isEmpty ? nil : health.detail)
    }
}
