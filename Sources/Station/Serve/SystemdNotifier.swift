#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// systemd's notification protocol (`sd_notify(3)`): `READY=1`, `WATCHDOG=1`, `STATUS=...`
/// as datagrams to `$NOTIFY_SOCKET`. Without that variable (not under systemd) it does nothing.
public struct SystemdNotifier: Sendable {
    let socketPath: String?
    /// Half of `$WATCHDOG_USEC`: how often systemd wants to hear `WATCHDOG=1`; `nil` without a watchdog.
    public let watchdogInterval: Duration?

    /// From the process's environment.
    public init() { self.init(environment: ProcessInfo.processInfo.environment) }

    public init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        if let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0,
            environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true
        {
            watchdogInterval = .microseconds(usec / 2)
        } else {
            watchdogInterval = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    public func watchdog() { send("WATCHDOG=1") }
    public func status(_ text: String) { send("STATUS=\(text)") }
    public func stopping() { send("STOPPING=1\nSTATUS=stopping") }

    /// Sends one datagram; failures are ignored, as `sd_notify` callers do.
    @discardableResult
    func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        return Self.sendDatagram(message, to: socketPath)
    }

    /// The one place that calls socket(2)/sendto(2). A path starting with `@` is in the
    /// abstract namespace.
    static func sendDatagram(_ message: String, to path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let payload = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                payload.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
            }
        }
        return sent == payload.count
    }
}
