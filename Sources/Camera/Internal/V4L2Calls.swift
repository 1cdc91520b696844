import CV4L2
import Glibc

// Every system call and V4L2 ioctl of the module is called from exactly one function
// here. Each returns a `Result` whose failure names the call and its errno, and
// retries EINTR (and only EINTR). Nothing else in the module calls C.

typealias SysResult<T> = Result<T, CameraError>

enum Sys {
    static func open(_ path: String, flags: Int32) -> SysResult<Int32> {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC)
            if fd >= 0 { return .success(fd) }
            if errno == EINTR { continue }
            return .failure(CameraError(call: "open", errno: errno, path: path))
        }
    }

    /// close(2) is not retried on EINTR: Linux releases the descriptor either way.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Waits up to `milliseconds` for `events` on `fd`; returns the events that
    /// happened (empty on timeout). EINTR is retried with the full time again, which
    /// at worst doubles a wait that a signal interrupted.
    static func poll(_ fd: Int32, events: Int16, milliseconds: Int32) -> SysResult<Int16> {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let rc = Glibc.poll(&entry, 1, milliseconds)
            if rc >= 0 { return .success(rc == 0 ? 0 : entry.revents) }
            if errno == EINTR { continue }
            return .failure(CameraError(call: "poll", errno: errno))
        }
    }

    static func mmap(_ fd: Int32, length: Int, offset: Int) -> SysResult<UnsafeMutableRawPointer> {
        let p = Glibc.mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        if p == MAP_FAILED || p == nil { return .failure(CameraError(call: "mmap", errno: errno)) }
        return .success(p!)
    }

    static func munmap(_ pointer: UnsafeMutableRawPointer, length: Int) {
        _ = Glibc.munmap(pointer, length)
    }

    /// The names in a directory, without `.` and `..`; empty when it does not exist.
    static func listDirectory(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The canonical path of `path` with symbolic links resolved, or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The monotonic clock V4L2 stamps buffers with, as a duration since boot.
    static func monotonicNow() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec)
    }

    static func readFile(_ path: String) -> SysResult<[UInt8]> {
        let fdResult = open(path, flags: O_RDONLY)
        guard case .success(let fd) = fdResult else { return fdResult.map { _ in [] } }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]); continue }
            if n == 0 { return .success(bytes) }
            if errno == EINTR { continue }
            return .failure(CameraError(call: "read", errno: errno, path: path))
        }
    }

    /// Reads exactly `count` bytes at `offset`; fewer only at the end of the file.
    static func pread(_ fd: Int32, count: Int, offset: Int) -> SysResult<[UInt8]> {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n > 0 { done += n; continue }
            if n == 0 { break }
            if errno == EINTR { continue }
            return .failure(CameraError(call: "pread", errno: errno))
        }
        return .success(Array(bytes.prefix(done)))
    }

    static func fileSize(_ fd: Int32) -> SysResult<Int> {
        var st = stat()
        if fstat(fd, &st) != 0 { return .failure(CameraError(call: "fstat", errno: errno)) }
        return .success(Int(st.st_size))
    }

    /// Writes all of `bytes` to `fd` (a V4L2 output node takes one frame per write).
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> SysResult<Void> {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n >= 0 { offset += n; continue }
            if errno == EINTR { continue }
            return .failure(CameraError(call: "write", errno: errno))
        }
        return .success(())
    }

    static func writeFile(_ path: String, _ bytes: [UInt8], append: Bool) -> SysResult<Void> {
        let flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC)
        let fd = Glibc.open(path, flags | O_CLOEXEC, 0o644)
        if fd < 0 { return .failure(CameraError(call: "open", errno: errno, path: path)) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n >= 0 { offset += n; continue }
            if errno == EINTR { continue }
            return .failure(CameraError(call: "write", errno: errno, path: path))
        }
        return .success(())
    }
}

/// One function per V4L2 ioctl; all go through `call`, the one place that retries EINTR.
enum V4L2 {
    private static func call<T>(_ fd: Int32, _ request: UInt, _ name: String, _ argument: inout T) -> SysResult<Void> {
        while true {
            let rc = withUnsafeMutablePointer(to: &argument) { cv4l2_ioctl(fd, request, UnsafeMutableRawPointer($0)) }
            if rc >= 0 { return .success(()) }
            if errno == EINTR { continue }
            return .failure(CameraError(call: name, errno: errno))
        }
    }

    static func queryCapability(_ fd: Int32) -> SysResult<v4l2_capability> {
        var cap = v4l2_capability()
        return call(fd, cv4l2_vidioc_querycap(), "VIDIOC_QUERYCAP", &cap).map { cap }
    }

    /// The `index`th format, or nil past the last one (EINVAL ends the list).
    static func enumFormat(_ fd: Int32, index: UInt32) -> SysResult<v4l2_fmtdesc?> {
        var desc = v4l2_fmtdesc()
        desc.index = index
        desc.type = cv4l2_buf_type_video_capture()
        return endOfList(call(fd, cv4l2_vidioc_enum_fmt(), "VIDIOC_ENUM_FMT", &desc).map { desc })
    }

    static func enumFrameSize(_ fd: Int32, pixelFormat: UInt32, index: UInt32) -> SysResult<v4l2_frmsizeenum?> {
        var size = v4l2_frmsizeenum()
        size.index = index
        size.pixel_format = pixelFormat
        return endOfList(call(fd, cv4l2_vidioc_enum_framesizes(), "VIDIOC_ENUM_FRAMESIZES", &size).map { size })
    }

    static func enumFrameInterval(_ fd: Int32, pixelFormat: UInt32, width: UInt32, height: UInt32, index: UInt32)
        -> SysResult<v4l2_frmivalenum?>
    {
        var interval = v4l2_frmivalenum()
        interval.index = index
        interval.pixel_format = pixelFormat
        interval.width = width
        interval.height = height
        return endOfList(
            call(fd, cv4l2_vidioc_enum_frameintervals(), "VIDIOC_ENUM_FRAMEINTERVALS", &interval).map { interval })
    }

    static func getFormat(_ fd: Int32, type: UInt32 = cv4l2_buf_type_video_capture()) -> SysResult<v4l2_format> {
        var format = v4l2_format()
        format.type = type
        return call(fd, cv4l2_vidioc_g_fmt(), "VIDIOC_G_FMT", &format).map { format }
    }

    static func setFormat(_ fd: Int32, _ format: v4l2_format) -> SysResult<v4l2_format> {
        var format = format
        return call(fd, cv4l2_vidioc_s_fmt(), "VIDIOC_S_FMT", &format).map { format }
    }

    static func getParameters(_ fd: Int32) -> SysResult<v4l2_streamparm> {
        var parm = v4l2_streamparm()
        parm.type = cv4l2_buf_type_video_capture()
        return call(fd, cv4l2_vidioc_g_parm(), "VIDIOC_G_PARM", &parm).map { parm }
    }

    static func setParameters(_ fd: Int32, _ parm: v4l2_streamparm) -> SysResult<v4l2_streamparm> {
        var parm = parm
        return call(fd, cv4l2_vidioc_s_parm(), "VIDIOC_S_PARM", &parm).map { parm }
    }

    static func requestBuffers(_ fd: Int32, count: UInt32) -> SysResult<UInt32> {
        var req = v4l2_requestbuffers()
        req.count = count
        req.type = cv4l2_buf_type_video_capture()
        req.memory = cv4l2_memory_mmap()
        return call(fd, cv4l2_vidioc_reqbufs(), "VIDIOC_REQBUFS", &req).map { req.count }
    }

    static func queryBuffer(_ fd: Int32, index: UInt32) -> SysResult<v4l2_buffer> {
        var buf = mmapBuffer(index: index)
        return call(fd, cv4l2_vidioc_querybuf(), "VIDIOC_QUERYBUF", &buf).map { buf }
    }

    static func queueBuffer(_ fd: Int32, index: UInt32) -> SysResult<Void> {
        var buf = mmapBuffer(index: index)
        return call(fd, cv4l2_vidioc_qbuf(), "VIDIOC_QBUF", &buf)
    }

    /// A filled buffer, or nil when none is ready yet (EAGAIN on a non-blocking fd).
    static func dequeueBuffer(_ fd: Int32) -> SysResult<v4l2_buffer?> {
        var buf = mmapBuffer(index: 0)
        switch call(fd, cv4l2_vidioc_dqbuf(), "VIDIOC_DQBUF", &buf) {
        case .success: return .success(buf)
        case .failure(let e) where e.errno == EAGAIN: return .success(nil)
        case .failure(let e): return .failure(e)
        }
    }

    static func streamOn(_ fd: Int32) -> SysResult<Void> {
        var type = Int32(cv4l2_buf_type_video_capture())
        return call(fd, cv4l2_vidioc_streamon(), "VIDIOC_STREAMON", &type)
    }

    static func streamOff(_ fd: Int32) -> SysResult<Void> {
        var type = Int32(cv4l2_buf_type_video_capture())
        return call(fd, cv4l2_vidioc_streamoff(), "VIDIOC_STREAMOFF", &type)
    }

    /// The next control after `id` (with the NEXT flags), or nil past the last one.
    static func queryNextControl(_ fd: Int32, after id: UInt32) -> SysResult<v4l2_query_ext_ctrl?> {
        var query = v4l2_query_ext_ctrl()
        query.id = id | cv4l2_ctrl_flag_next_ctrl()
        return endOfList(call(fd, cv4l2_vidioc_query_ext_ctrl(), "VIDIOC_QUERY_EXT_CTRL", &query).map { query })
    }

    static func queryMenu(_ fd: Int32, id: UInt32, index: UInt32) -> SysResult<v4l2_querymenu?> {
        var menu = v4l2_querymenu()
        menu.id = id
        menu.index = index
        return endOfList(call(fd, cv4l2_vidioc_querymenu(), "VIDIOC_QUERYMENU", &menu).map { menu })
    }

    static func getControl(_ fd: Int32, id: UInt32) -> SysResult<Int32> {
        var control = v4l2_control(id: id, value: 0)
        return call(fd, cv4l2_vidioc_g_ctrl(), "VIDIOC_G_CTRL", &control).map { control.value }
    }

    static func setControl(_ fd: Int32, id: UInt32, value: Int32) -> SysResult<Void> {
        var control = v4l2_control(id: id, value: value)
        return call(fd, cv4l2_vidioc_s_ctrl(), "VIDIOC_S_CTRL", &control)
    }

    private static func mmapBuffer(index: UInt32) -> v4l2_buffer {
        var buf = v4l2_buffer()
        buf.index = index
        buf.type = cv4l2_buf_type_video_capture()
        buf.memory = cv4l2_memory_mmap()
        return buf
    }

    /// V4L2 enumerations end with EINVAL; that is the end of the list, not an error.
    private static func endOfList<T>(_ result: SysResult<T>) -> SysResult<T?> {
        switch result {
        case .success(let value): return .success(value)
        case .failure(let e) where e.errno == EINVAL: return .success(nil)
        case .failure(let e): return .failure(e)
        }
    }
}

/// A fixed-size C char array (a tuple) as a Swift string.
func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
}
