/// What `idkiosk diag camera` shows: every video node, its modes and controls, the
/// mode chosen per purpose, and optionally a short stream check. Codable for `--json`.
public struct CameraDiagnosticReport: Hashable, Sendable, Codable {
    public var devices: [Device]

    public init(devices: [Device]) { self.devices = devices }

    public struct Device: Hashable, Sendable, Codable {
        public var info: CaptureDeviceInfo
        public var modes: [CaptureMode]
        public var controls: [Control]
        /// The mode `negotiateMode` picks for each purpose (by `CapturePurpose` raw value).
        public var negotiated: [String: CaptureMode]
        public var streamCheck: StreamCheck?
        /// Why the device could not be examined fully, if it could not.
        public var error: ErrorSummary?

        public init(
            info: CaptureDeviceInfo, modes: [CaptureMode] = [], controls: [Control] = [], negotiated: [String: CaptureMode] = [:],
            streamCheck: StreamCheck? = nil, error: ErrorSummary? = nil
        ) {
            self.info = info
            self.modes = modes
            self.controls = controls
            self.negotiated = negotiated
            self.streamCheck = streamCheck
            self.error = error
        }
    }

    /// A driver control and the station control it stands for, if any.
    public struct Control: Hashable, Sendable, Codable {
        public var station: CameraControl?
        public var info: ControlInfo
        public var current: Int64?

        public init(station: CameraControl?, info: ControlInfo, current: Int64?) {
            self.station = station
            self.info = info
            self.current = current
        }
    }

    /// A few frames read in one mode: did they come, how fast, how many were lost.
    public struct StreamCheck: Hashable, Sendable, Codable {
        public var mode: CaptureMode
        public var framesRequested: Int
        public var framesDelivered: Int
        public var framesDropped: Int
        public var timeouts: Int
        /// From the frames' own timestamps.
        public var measuredFramesPerSecond: Double?
        /// Mean 8-bit luma of the last frame: near 0 is a covered lens or dark room.
        public var meanLuma: Double?
        /// Focus measure of the last frame: the variance of its luma Laplacian. Higher is
        /// sharper; a few tens is a blurred or defocused image, hundreds a sharp one.
        public var sharpness: Double?
        public var error: ErrorSummary?

        public init(
            mode: CaptureMode, framesRequested: Int, framesDelivered: Int, framesDropped: Int, timeouts: Int,
            measuredFramesPerSecond: Double?, meanLuma: Double?, sharpness: Double? = nil, error: ErrorSummary?
        ) {
            self.mode = mode
            self.framesRequested = framesRequested
            self.framesDelivered = framesDelivered
            self.framesDropped = framesDropped
            self.timeouts = timeouts
            self.measuredFramesPerSecond = measuredFramesPerSecond
            self.meanLuma = meanLuma
            self.sharpness = sharpness
            self.error = error
        }
    }

    /// A `CameraError` as a technician reads it.
    public struct ErrorSummary: Hashable, Sendable, Codable {
        public var kind: CameraError.Kind
        public var message: String
        public var call: String?
        public var errno: Int32?
        public var hint: String
        public var isRetryable: Bool

        public init(_ error: CameraError) {
            kind = error.kind
            message = error.message
            call = error.call
            errno = error.errno
            hint = error.hint
            isRetryable = error.isRetryable
        }
    }
}

/// What `idkiosk capture --out` did.
public struct CaptureReport: Hashable, Sendable, Codable {
    public var camera: String
    public var mode: CaptureMode
    public var sequence: UInt32
    /// The frame's capture time on CLOCK_MONOTONIC, in nanoseconds.
    public var timestampNanoseconds: Int64
    /// Frames read and thrown away first (auto exposure settling).
    public var warmupFrames: Int
    public var jpegBytes: Int
    public var quality: Int

    public init(camera: String, mode: CaptureMode, sequence: UInt32, timestampNanoseconds: Int64, warmupFrames: Int, jpegBytes: Int, quality: Int) {
        self.camera = camera
        self.mode = mode
        self.sequence = sequence
        self.timestampNanoseconds = timestampNanoseconds
        self.warmupFrames = warmupFrames
        self.jpegBytes = jpegBytes
        self.quality = quality
    }
}

/// What `idkiosk capture --record` did.
public struct RecordingReport: Hashable, Sendable, Codable {
    public var camera: String
    public var path: String
    public var mode: CaptureMode
    public var framesWritten: Int
    public var statistics: StreamStatistics

    public init(camera: String, path: String, mode: CaptureMode, framesWritten: Int, statistics: StreamStatistics) {
        self.camera = camera
        self.path = path
        self.mode = mode
        self.framesWritten = framesWritten
        self.statistics = statistics
    }
}
