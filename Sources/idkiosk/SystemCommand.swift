import Dispatch
import Foundation
import Synchronization

/// Runs a program of the system (`journalctl`, `dpkg-query`, `tar`) and collects what it
/// wrote; a program that is not installed is an outcome, not a crash.
enum SystemCommand {
    struct Outcome {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Where `name` is on `PATH`, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `name` (found on `PATH`) with `arguments`; standard output goes to `output` when
    /// given (a file the caller opened), else it is collected.
    /// - Throws: `CommandFailure` when the program is missing or cannot be started.
    static func run(_ name: String, _ arguments: [String], output: FileHandle? = nil) throws -> Outcome {
        guard let executable = find(name) else {
            throw CommandFailure(.deviceMissing, "\(name) is not installed (not on PATH)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        if let output { process.standardOutput = output } else { process.standardOutput = out }
        process.standardError = err
        do {
            try process.run()
        } catch {
            throw CommandFailure(.internalError, "cannot start \(executable): \(error.localizedDescription)")
        }
        // Read both pipes to their end before waiting, so a chatty program never blocks on a full pipe.
        let collected = Mutex<Data>(Data())
        let done = DispatchSemaphore(value: 0)
        let errors = err.fileHandleForReading
        DispatchQueue.global().async {
            let data = errors.readDataToEndOfFile()
            collected.withLock { $0 = data }
            done.signal()
        }
        let stdout = output == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        done.wait()
        return Outcome(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: collected.withLock { $0 }, as: UTF8.self))
    }
}
