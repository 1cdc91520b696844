import Foundation
public import Glibc
import Synchronization

/// A program running in the background for a test or a benchmark (a daemon under test, a
/// virtual passport, a backend), its output in a log file. `posix_spawn` and `waitpid`
/// directly, for the reason `runToCompletion` gives.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    /// Where its standard output and error go.
    public let logPath: String
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `path` with `arguments`.
    /// - Parameter extraEnvironment: added to (or replacing in) this process's environment.
    public init(_ path: String, _ arguments: [String], extraEnvironment: [String: String] = [:], logPath: String) throws {
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extraEnvironment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, &envp)
        guard rc == 0 else { throw ChildProcessError("cannot start \(path): \(String(cString: strerror(rc)))") }
        self.pid = pid
        self.logPath = logPath
    }

    /// What it has written so far.
    public var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Whether it still runs (reaps it when it has ended).
    public var isRunning: Bool { poll() == nil }

    /// Its exit status (or 128 + signal) once it has ended, without waiting.
    public func poll() -> Int32? {
        if let known = exitStatus.withLock({ $0 }) { return known }
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        guard rc == pid else { return nil }
        let code = Self.decode(status)
        exitStatus.withLock { $0 = code }
        return code
    }

    public func signal(_ number: Int32) { if poll() == nil { kill(pid, number) } }

    /// Waits (polling, up to `limit`) for it to end; SIGKILL after the limit.
    @discardableResult
    public func wait(limit: Duration = .seconds(30)) async -> Int32 {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while clock.now < end {
            if let code = poll() { return code }
            try? await Task.sleep(for: .milliseconds(20))
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let code = Self.decode(status)
        exitStatus.withLock { $0 = code }
        return code
    }

    /// SIGTERM, then waits.
    @discardableResult
    public func terminate(limit: Duration = .seconds(20)) async -> Int32 {
        signal(SIGTERM)
        return await wait(limit: limit)
    }

    /// Resident memory in kB (VmRSS), while it runs.
    public var residentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Waits (polling, up to `limit`) until something accepts TCP connections on `port` at 127.0.0.1.
public func waitForTCPPort(_ port: Int, limit: Duration = .seconds(30)) async -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + limit
    while clock.now < end {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if fd >= 0 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if rc == 0 { return true }
        }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}
