import CV4L2
import Glibc
public import Imaging
import KioskTime
public import Logging

/// A V4L2 capture device streaming through mmap buffers.
///
/// Every wait is a poll(2) with a time limit, so a camera that stops delivering is
/// reported as `.timeout` instead of hanging the station. When the device goes away
/// (ENODEV, POLLERR/POLLHUP) the stream is torn down and `.unplugged` thrown; `reopen()`
/// finds the camera again by the name it was opened with and resumes the same mode.
public final class V4L2Camera: FrameSource {
    /// The name the camera was opened by (a node, udev link, `bus:` or `card:` name).
    public let name: String
    /// The node currently open.
    public private(set) var path: String
    public private(set) var info: CaptureDeviceInfo
    public private(set) var mode: CaptureMode?
    public private(set) var statistics = StreamStatistics()
    /// Bytes per line of the first plane in the configured mode.
    public private(set) var bytesPerLine = 0

    private var fd: Int32
    private var buffers: [(pointer: UnsafeMutableRawPointer, length: Int)] = []
    private var streaming = false
    /// Whether the owner asked for a stream (kept across an unplug, for `reopen`).
    private var wantsStreaming = false
    private let bufferCount: UInt32
    private let logger: Logger

    /// Opens a camera by name.
    /// - Parameters:
    ///   - name: a node, a udev link, `bus:<bus position>` or `card:<name>`.
    ///   - bufferCount: mmap buffers to ask for; more buffers absorb longer stalls of the reader.
    ///   - logger: where device events go, with the camera as metadata.
    /// - Throws: `CameraError` `.notFound`, `.permissionDenied`, `.notACaptureDevice`, ...
    public init(name: String, bufferCount: UInt32 = 4, logger: Logger) throws(CameraError) {
        self.name = name
        self.bufferCount = bufferCount
        var logger = logger
        logger[metadataKey: "camera"] = "\(name)"
        self.logger = logger
        let (path, fd, info) = try Self.open(name)
        self.path = path
        self.fd = fd
        self.info = info
    }

    deinit {
        teardown()
    }

    private static func open(_ name: String) throws(CameraError) -> (String, Int32, CaptureDeviceInfo) {
        let path = try CameraDiscovery.resolve(name)
        let fd = try Sys.open(path, flags: O_RDWR | O_NONBLOCK).get()
        let cap: v4l2_capability
        switch V4L2.queryCapability(fd) {
        case .success(let c): cap = c
        case .failure(let e):
            Sys.close(fd)
            throw e
        }
        let info = CameraDiscovery.describe(cap, path: path, stableNames: CameraDiscovery.stableLinks(deviceDirectory: "/dev")[path] ?? [])
        guard info.isCapture else {
            Sys.close(fd)
            throw CameraError(kind: .notACaptureDevice, call: "VIDIOC_QUERYCAP", message: "\(path) (\(info.card)) cannot capture video by streaming")
        }
        return (path, fd, info)
    }

    // MARK: Modes

    /// Every format, size and interval the driver lists. Stepwise and continuous sizes
    /// are represented by their largest size and the common sizes inside the range.
    public func modes() throws(CameraError) -> [CaptureMode] {
        try ensureOpen()
        var modes: [CaptureMode] = []
        var formatIndex: UInt32 = 0
        while let desc = try V4L2.enumFormat(fd, index: formatIndex).get() {
            formatIndex += 1
            let format = PixelFormat(rawValue: desc.pixelformat)
            for (w, h) in try sizes(format) {
                for interval in try intervals(format, width: w, height: h) {
                    modes.append(CaptureMode(format: format, width: Int(w), height: Int(h), interval: interval))
                }
            }
        }
        return modes
    }

    private func sizes(_ format: PixelFormat) throws(CameraError) -> [(UInt32, UInt32)] {
        var result: [(UInt32, UInt32)] = []
        var index: UInt32 = 0
        while let size = try V4L2.enumFrameSize(fd, pixelFormat: format.rawValue, index: index).get() {
            index += 1
            if size.type == cv4l2_frmsize_type_discrete() {
                result.append((size.discrete.width, size.discrete.height))
            } else {
                let s = size.stepwise
                let common: [(UInt32, UInt32)] = [(640, 480), (1280, 720), (1920, 1080), (2592, 1944), (3840, 2160)]
                for (w, h) in common where w >= s.min_width && w <= s.max_width && h >= s.min_height && h <= s.max_height
                    && (w - s.min_width) % max(1, s.step_width) == 0 && (h - s.min_height) % max(1, s.step_height) == 0
                {
                    result.append((w, h))
                }
                result.append((s.max_width, s.max_height))
                break
            }
        }
        return result
    }

    private func intervals(_ format: PixelFormat, width: UInt32, height: UInt32) throws(CameraError) -> [FrameInterval] {
        var result: [FrameInterval] = []
        var index: UInt32 = 0
        while let ival = try V4L2.enumFrameInterval(fd, pixelFormat: format.rawValue, width: width, height: height, index: index).get() {
            index += 1
            if ival.type == cv4l2_frmival_type_discrete() {
                result.append(FrameInterval(numerator: ival.discrete.numerator, denominator: ival.discrete.denominator))
            } else {
                // Stepwise or continuous: the fastest and the slowest end are enough to negotiate.
                result.append(FrameInterval(numerator: ival.stepwise.min.numerator, denominator: ival.stepwise.min.denominator))
                result.append(FrameInterval(numerator: ival.stepwise.max.numerator, denominator: ival.stepwise.max.denominator))
                break
            }
        }
        if result.isEmpty {
            // Drivers without interval enumeration: ask what they run at now.
            result.append(FrameInterval(fps: 30))
        }
        return result
    }

    /// Sets the format, size and frame interval; the driver may adjust them.
    /// - Returns: the mode the driver actually took.
    @discardableResult
    public func configure(_ wanted: CaptureMode) throws(CameraError) -> CaptureMode {
        try ensureOpen()
        if streaming { stop() }
        var format = try V4L2.getFormat(fd).get()
        format.fmt.pix.width = UInt32(wanted.width)
        format.fmt.pix.height = UInt32(wanted.height)
        format.fmt.pix.pixelformat = wanted.format.rawValue
        format.fmt.pix.field = cv4l2_field_none()
        format.fmt.pix.bytesperline = 0
        let got = try V4L2.setFormat(fd, format).get()
        var interval = wanted.interval
        var parm = try V4L2.getParameters(fd).get()
        if parm.parm.capture.capability & cv4l2_cap_timeperframe() != 0 {
            parm.parm.capture.timeperframe = v4l2_fract(numerator: wanted.interval.numerator, denominator: wanted.interval.denominator)
            let set = try V4L2.setParameters(fd, parm).get()
            interval = FrameInterval(numerator: set.parm.capture.timeperframe.numerator, denominator: set.parm.capture.timeperframe.denominator)
        }
        let actual = CaptureMode(
            format: PixelFormat(rawValue: got.fmt.pix.pixelformat), width: Int(got.fmt.pix.width),
            height: Int(got.fmt.pix.height), interval: interval)
        bytesPerLine = Int(got.fmt.pix.bytesperline)
        mode = actual
        logger.info(
            "camera mode set",
            metadata: ["format": "\(actual.format)", "width": "\(actual.width)", "height": "\(actual.height)", "fps": "\(actual.framesPerSecond)"])
        return actual
    }

    /// Negotiates and sets the best mode for `purpose`.
    /// - Throws: `.noSuitableMode` when the camera lists no decodable mode.
    @discardableResult
    public func configure(for purpose: CapturePurpose) throws(CameraError) -> CaptureMode {
        let all = try modes()
        guard let best = negotiateMode(all, for: purpose) else {
            throw CameraError(kind: .noSuitableMode, message: "\(info.card) lists no mode in a format idkiosk decodes (\(Set(all.map(\.format))))")
        }
        return try configure(best)
    }

    // MARK: Streaming

    public func start() async throws(CameraError) {
        try startStreaming()
    }

    /// Starts streaming synchronously (the async `start()` only forwards here).
    public func startStreaming() throws(CameraError) {
        try ensureOpen()
        if streaming { return }
        wantsStreaming = true
        if mode == nil {
            let current = try V4L2.getFormat(fd).get()
            mode = CaptureMode(
                format: PixelFormat(rawValue: current.fmt.pix.pixelformat), width: Int(current.fmt.pix.width),
                height: Int(current.fmt.pix.height), interval: FrameInterval(fps: 30))
            bytesPerLine = Int(current.fmt.pix.bytesperline)
        }
        do throws(CameraError) {
            let count = try V4L2.requestBuffers(fd, count: bufferCount).get()
            guard count > 0 else {
                throw CameraError(kind: .failed, call: "VIDIOC_REQBUFS", message: "the driver granted no buffers")
            }
            for index in 0..<count {
                let buf = try V4L2.queryBuffer(fd, index: index).get()
                let pointer = try Sys.mmap(fd, length: Int(buf.length), offset: Int(buf.m.offset)).get()
                buffers.append((pointer, Int(buf.length)))
                try V4L2.queueBuffer(fd, index: index).get()
            }
            try V4L2.streamOn(fd).get()
            streaming = true
            statistics.lastSequence = nil
            logger.debug("camera streaming", metadata: ["buffers": "\(count)"])
        } catch {
            releaseBuffers()
            throw error
        }
    }

    public func nextFrame(timeout: Duration) async throws(CameraError) -> Frame {
        try readFrame(timeout: timeout)
    }

    /// Waits up to `timeout` for the next good frame and copies it out of the driver's
    /// buffer (one allocation per frame, none per pixel).
    public func readFrame(timeout: Duration) throws(CameraError) -> Frame {
        guard streaming, let mode else {
            throw CameraError(kind: .notStreaming, message: "\(name) is not streaming")
        }
        let deadline = Sys.monotonicNow() + timeout
        while true {
            let remaining = deadline - Sys.monotonicNow()
            let ms = remaining.pollTimeout
            let events = try unplugOnError(Sys.poll(fd, events: Int16(POLLIN), milliseconds: ms))
            if events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                throw unplugged(call: "poll", errno: nil)
            }
            if events & Int16(POLLIN) != 0, let buf = try unplugOnError(V4L2.dequeueBuffer(fd)) {
                defer { _ = V4L2.queueBuffer(fd, index: buf.index) }
                if buf.flags & cv4l2_buf_flag_error() != 0 {
                    statistics.framesDropped += 1
                    continue
                }
                statistics.record(sequence: buf.sequence)
                let b = buffers[Int(buf.index)]
                let bytes = Array(UnsafeRawBufferPointer(start: b.pointer, count: min(Int(buf.bytesused), b.length)))
                let stamp = Duration.seconds(Int64(buf.timestamp.tv_sec)) + .microseconds(Int64(buf.timestamp.tv_usec))
                return Frame(
                    format: mode.format, width: mode.width, height: mode.height,
                    bytesPerLine: mode.format.isCompressed ? 0 : bytesPerLine, sequence: buf.sequence, timestamp: stamp,
                    bytes: bytes)
            }
            if Sys.monotonicNow() >= deadline {
                statistics.timeouts += 1
                throw CameraError(kind: .timeout, call: "poll", message: "\(name) delivered no frame within \(timeout)")
            }
        }
    }

    public func stop() {
        wantsStreaming = false
        guard fd >= 0 else { return }
        if streaming { _ = V4L2.streamOff(fd) }
        releaseBuffers()
    }

    /// Opens the camera again by its name after it went away, and resumes the mode
    /// (and the stream, if it was streaming).
    /// - Throws: `.notFound` while the camera is still away.
    public func reopen() throws(CameraError) {
        let wasStreaming = wantsStreaming
        teardown()
        let (path, fd, info) = try Self.open(name)
        self.path = path
        self.fd = fd
        self.info = info
        statistics.reopens += 1
        logger.notice("camera reopened", metadata: ["path": "\(path)"])
        if let mode { try configure(mode) }
        if wasStreaming { try startStreaming() }
    }

    // MARK: Controls

    /// Every control the driver offers, with ranges and menus.
    public func controls() throws(CameraError) -> [ControlInfo] {
        try ensureOpen()
        var result: [ControlInfo] = []
        var id: UInt32 = 0
        while let q = try V4L2.queryNextControl(fd, after: id).get() {
            id = q.id
            if q.flags & cv4l2_ctrl_flag_disabled() != 0 { continue }
            let type: ControlInfo.ValueType
            switch q.type {
            case cv4l2_ctrl_type_integer(): type = .integer
            case cv4l2_ctrl_type_boolean(): type = .boolean
            case cv4l2_ctrl_type_menu(): type = .menu
            case cv4l2_ctrl_type_integer_menu(): type = .integerMenu
            default: type = .other
            }
            if type == .other && q.elems > 1 { continue }
            var menu: [Int: String] = [:]
            if type == .menu || type == .integerMenu, q.minimum >= 0, q.maximum < 256 {
                for i in q.minimum...q.maximum {
                    if let entry = try V4L2.queryMenu(fd, id: q.id, index: UInt32(i)).get() {
                        menu[Int(i)] = type == .menu ? cString(entry.name) : "\(entry.value)"
                    }
                }
            }
            result.append(
                ControlInfo(
                    id: q.id, name: cString(q.name), type: type, minimum: q.minimum, maximum: q.maximum, step: q.step,
                    defaultValue: q.default_value, menu: menu, isReadOnly: q.flags & cv4l2_ctrl_flag_read_only() != 0,
                    isInactive: q.flags & cv4l2_ctrl_flag_inactive() != 0))
        }
        return result
    }

    /// The current value of a station control.
    /// - Throws: `.controlNotSupported` when this camera has no such control.
    public func value(of control: CameraControl) throws(CameraError) -> Int64 {
        let info = try resolve(control)
        return Int64(try V4L2.getControl(fd, id: info.id).get())
    }

    /// Sets a station control, clamped into the driver's range.
    /// - Returns: the value written.
    @discardableResult
    public func set(_ control: CameraControl, to value: Int64) throws(CameraError) -> Int64 {
        let info = try resolve(control)
        let v = info.clamped(value)
        try V4L2.setControl(fd, id: info.id, value: Int32(clamping: v)).get()
        return v
    }

    /// The value of a driver control by id.
    public func rawValue(controlID: UInt32) throws(CameraError) -> Int32 {
        try ensureOpen()
        return try V4L2.getControl(fd, id: controlID).get()
    }

    /// Sets a driver control by id (for driver-specific controls such as vivid's test buttons).
    public func setRaw(controlID: UInt32, to value: Int32) throws(CameraError) {
        try ensureOpen()
        try V4L2.setControl(fd, id: controlID, value: value).get()
    }

    private func resolve(_ control: CameraControl) throws(CameraError) -> ControlInfo {
        try resolve(control, in: try controls())
    }

    private func resolve(_ control: CameraControl, in controls: [ControlInfo]) throws(CameraError) -> ControlInfo {
        guard let info = ControlMapping.resolve(control, in: controls) else {
            throw CameraError(kind: .controlNotSupported, message: "\(self.info.card) has no \(control.rawValue) control")
        }
        return info
    }

    // MARK: Teardown

    private func ensureOpen() throws(CameraError) {
        if fd < 0 { throw CameraError(kind: .unplugged, message: "\(name) is closed after it went away; reopen it") }
    }

    private func unplugOnError<T>(_ result: SysResult<T>) throws(CameraError) -> T {
        switch result {
        case .success(let v): return v
        case .failure(let e) where e.kind == .unplugged || e.errno == EIO && e.call == "VIDIOC_DQBUF":
            throw unplugged(call: e.call ?? "ioctl", errno: e.errno)
        case .failure(let e): throw e
        }
    }

    private func unplugged(call: String, errno: Int32?) -> CameraError {
        logger.warning("camera went away", metadata: ["call": "\(call)"])
        teardown()
        return CameraError(kind: .unplugged, call: call, errno: errno, message: "\(name) went away")
    }

    private func releaseBuffers() {
        for b in buffers { Sys.munmap(b.pointer, length: b.length) }
        buffers.removeAll()
        if streaming, fd >= 0 { _ = V4L2.requestBuffers(fd, count: 0) }
        streaming = false
    }

    private func teardown() {
        for b in buffers { Sys.munmap(b.pointer, length: b.length) }
        buffers.removeAll()
        streaming = false
        if fd >= 0 {
            Sys.close(fd)
            fd = -1
        }
    }
}

extension V4L2Camera: ExposureHolding {
    public func holdExposure() -> ExposureHold {
        var hold = ExposureHold()
        guard let controls = try? controls() else { return hold }
        for control in [CameraControl.autoExposure, .autoGain, .autoWhiteBalance] {
            guard let manual = control.manualValue, let info = try? resolve(control, in: controls), !info.isReadOnly,
                info.type != .menu || info.menu[Int(manual)] != nil,
                let before = try? value(of: control), before != manual
            else { continue }
            do {
                try V4L2.setControl(fd, id: info.id, value: Int32(clamping: manual)).get()
                hold.restore[control] = before
            } catch {
                logger.notice("an automatic control could not be held", metadata: ["control": "\(control.rawValue)", "error": "\(error)"])
            }
        }
        return hold
    }

    public func release(_ hold: ExposureHold) {
        for (control, value) in hold.restore {
            do { try set(control, to: value) } catch {
                logger.warning("an automatic control could not be restored", metadata: ["control": "\(control.rawValue)", "error": "\(error)"])
            }
        }
    }
}
