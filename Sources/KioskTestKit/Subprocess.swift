import Foundation
import Glibc

/// What a finished child process left behind.
public struct ProcessOutcome: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs a program to completion and returns its exit status (or 128 + signal).
///
/// Foundation's `Process.waitUntilExit()` can wait forever on Linux when the child
/// leaves a daemon behind (as `scripts/pcscd-vpcd.sh start` does), so tests use
/// `posix_spawn` and `waitpid` directly.
public func runToCompletion(_ path: String, _ arguments: [String], environment: [String: String]? = nil) -> Int32 {
    spawnAndWait(path, arguments, environment: environment, stdoutPath: "/dev/null", stderrPath: nil)
}

/// Runs a program to completion, capturing its standard output and error.
/// - Parameter extraEnvironment: added to (or replacing in) this process's environment.
public func runCapturing(_ path: String, _ arguments: [String], extraEnvironment: [String: String] = [:]) -> ProcessOutcome {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-test-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let out = directory.appendingPathComponent("stdout").path
    let err = directory.appendingPathComponent("stderr").path
    var environment = ProcessInfo.processInfo.environment
    environment.merge(extraEnvironment) { $1 }
    let status = spawnAndWait(path, arguments, environment: environment, stdoutPath: out, stderrPath: err)
    return ProcessOutcome(
        status: status,
        stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
}

private func spawnAndWait(_ path: String, _ arguments: [String], environment: [String: String]?, stdoutPath: String?, stderrPath: String?)
    -> Int32
{
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var envStrings = environment.map { env in env.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer { envStrings?.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdoutPath { posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
    if let stderrPath { posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
    var pid: pid_t = 0
    let rc: Int32
    if envStrings != nil {
        rc = posix_spawn(&pid, path, &actions, nil, argv, &envStrings!)
    } else {
        rc = posix_spawn(&pid, path, &actions, nil, argv, environ)
    }
    guard rc == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
}

/// The `idkiosk` executable built next to the test bundle.
public enum IDKioskBinary {
    public static var path: String {
        if let explicit = ProcessInfo.processInfo.environment["IDKIOSK_BIN"] { return explicit }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("idkiosk").path
    }

    public static func run(_ arguments: String..., environment: [String: String] = [:]) -> ProcessOutcome {
        runCapturing(path, arguments, extraEnvironment: environment)
    }
}
