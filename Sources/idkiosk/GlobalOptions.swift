import ArgumentParser
import Foundation
import KioskLog
import Logging
import Station
import Synchronization

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "Configuration file (default: \(Configuration.defaultPath) if it exists).")
    var config: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical (default: from the configuration, else info).")
    var logLevel: String?

    @Flag(name: .long, help: "Machine-readable JSON on standard output.")
    var json = false

    func validate() throws {
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    /// Loads the configuration and sets up logging; exits 78 when the file is bad.
    func start() throws -> (Configuration, Logger) {
        let configuration: Configuration
        do {
            configuration = try Configuration.resolve(explicitPath: config)
        } catch {
            throw CommandFailure(.badConfiguration, error.description)
        }
        let level = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? configuration.log.level
        let format: StructuredLogHandler.Format = configuration.log.format == .json ? .json : .journal
        LoggingBootstrap.once {
            LoggingSystem.bootstrap { StructuredLogHandler(label: $0, level: level, format: format) }
        }
        return (configuration, Logger(label: "idkiosk"))
    }
}


/// swift-log may be bootstrapped only once per process.
enum LoggingBootstrap {
    private static let done = Mutex(false)

    static func once(_ body: () -> Void) {
        let first = done.withLock { d -> Bool in
            defer { d = true }
            return !d
        }
        if first { body() }
    }
}
