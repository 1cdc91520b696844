import Foundation
import Glibc

/// systemd's side of `sd_notify`: a datagram socket a daemon under test reports to
/// (`NOTIFY_SOCKET`), for tests of READY=1, WATCHDOG=1 and STATUS=.
public final class NotifySocket: @unchecked Sendable {
    /// The path to give the daemon as `NOTIFY_SOCKET`.
    public let path: String
    private let fd: Int32

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcessError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else { throw ChildProcessError("bind \(path): \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next datagram, or `nil` after 200 ms without one.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(n), as: UTF8.self)
    }

    /// Datagrams until one contains `text`, up to `limit`; all of them, in order.
    public func receive(until text: String, limit: Duration = .seconds(30)) async -> [String] {
        var seen: [String] = []
        let clock = ContinuousClock()
        let end = clock.now + limit
        while clock.now < end {
            if let message = receive() {
                seen.append(message)
                if message.contains(text) { return seen }
            } else {
                await Task.yield()
            }
        }
        return seen
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago.
public func freeTCPPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}
