import Glibc

/// A connected TCP socket; each system call is made here and only here, and EINTR is
/// retried here.
final class Socket: Sendable {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Connects to `host` (IPv4 dotted quad) and `port`.
    static func connect(host: String, port: UInt16) -> Result<Socket, SystemCallError> {
        // Close-on-exec: a program the test spawns must not hold the card's connection open
        // (a card that vanishes would stay on the reader for as long as that program runs).
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.current("socket")) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            Glibc.close(fd)
            return .failure(SystemCallError(call: "inet_pton", errno: EINVAL))
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                retryingInterrupts { Glibc.connect(fd, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard rc == 0 else {
            let error = SystemCallError.current("connect")
            Glibc.close(fd)
            return .failure(error)
        }
        return .success(Socket(fd: fd))
    }

    /// Reads exactly `count` bytes; `.success(nil)` when the peer closed first.
    /// - Parameter quickAck: acknowledge at once (see `VirtualCard.quickAcknowledgements`).
    func readExactly(_ count: Int, quickAck: Bool = true) -> Result<[UInt8]?, SystemCallError> {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            if quickAck {
                // Linux leaves quick-ack mode on its own, so it is asked for before every read.
                var one: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            let n = buffer.withUnsafeMutableBytes { raw in
                retryingInterrupts { Glibc.read(fd, raw.baseAddress! + filled, count - filled) }
            }
            if n < 0 { return .failure(.current("read")) }
            if n == 0 { return .success(nil) }
            filled += n
        }
        return .success(buffer)
    }

    func writeAll(_ bytes: [UInt8]) -> Result<Void, SystemCallError> {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                retryingInterrupts { Glibc.send(fd, raw.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            }
            if n < 0 { return .failure(.current("send")) }
            sent += n
        }
        return .success(())
    }

    /// Wakes a thread blocked in `readExactly` on this socket.
    static func shutdown(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    deinit { Glibc.close(fd) }
}

private func retryingInterrupts<T: BinaryInteger>(_ body: () -> T) -> T {
    while true {
        let r = body()
        if r == -1 && errno == EINTR { continue }
        return r
    }
}

/// A failed system call, with its name and errno.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32

    static func current(_ call: String) -> SystemCallError { SystemCallError(call: call, errno: Glibc.errno) }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
