import ArgumentParser
import Foundation
import SmartCard

/// The exit statuses of `idkiosk`, as docs/cli.md lists them (values from sysexits.h).
enum ExitStatus: Int32 {
    case ok = 0
    /// EX_USAGE: bad arguments or bad input data.
    case badInput = 64
    /// EX_DATAERR: the document failed a verification check (read-chip).
    case verificationFailed = 65
    /// EX_UNAVAILABLE: a device (or its service) is missing.
    case deviceMissing = 69
    /// EX_SOFTWARE: a bug of ours.
    case internalError = 70
    /// EX_CANTCREAT: an output file cannot be created or written (support-bundle -o).
    case cannotCreate = 73
    /// EX_IOERR: a device is there but failed.
    case deviceError = 74
    /// EX_CONFIG: the configuration is invalid.
    case badConfiguration = 78

    /// The status for a PC/SC failure: missing things vs. failing things.
    init(_ error: SmartCardError) {
        switch error.kind {
        case .serviceUnavailable, .readerNotFound, .noCard: self = .deviceMissing
        default: self = .deviceError
        }
    }
}

/// An error that ends the command with a message for the person and an exit status.
struct CommandFailure: Error, CustomStringConvertible {
    var status: ExitStatus
    var message: String
    var hint: String?

    init(_ status: ExitStatus, _ message: String, hint: String? = nil) {
        self.status = status
        self.message = message
        self.hint = hint
    }

    init(_ error: SmartCardError) {
        self.init(ExitStatus(error), error.description, hint: error.hint)
    }

    var description: String { message }

    /// Prints the message (and hint) to standard error and returns the exit code.
    func report() -> ExitCode {
        var text = "idkiosk: \(message)\n"
        if let hint { text += "hint: \(hint)\n" }
        FileHandle.standardError.write(Data(text.utf8))
        return ExitCode(status.rawValue)
    }
}

extension AsyncParsableCommand {
    /// Runs `body`, turning a `CommandFailure` into its message and exit status.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CommandFailure {
            throw failure.report()
        }
    }
}
