import Glibc

/// Runs a program to completion and returns its exit status (or 128 + signal).
///
/// Foundation's `Process.waitUntilExit()` can wait forever on Linux when the child
/// leaves a daemon behind (as `scripts/pcscd-vpcd.sh start` does), so tests use
/// `posix_spawn` and `waitpid` directly.
public func runToCompletion(_ path: String, _ arguments: [String], environment: [String: String]? = nil) -> Int32 {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var envStrings = environment.map { env in env.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer { envStrings?.forEach { free($0) } }
    var pid: pid_t = 0
    let rc: Int32
    if envStrings != nil {
        rc = posix_spawn(&pid, path, nil, nil, argv, &envStrings!)
    } else {
        rc = posix_spawn(&pid, path, nil, nil, argv, environ)
    }
    guard rc == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
}
