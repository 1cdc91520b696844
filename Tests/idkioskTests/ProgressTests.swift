import Foundation
import KioskTestKit
import Testing

/// The progress line of slow commands, seen through a real pseudo-terminal (util-linux's
/// `script`): on a terminal it names each step and is erased before the result; with
/// `--json`, or when standard error is no terminal, there is none.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) from util-linux (Debian bsdutils)"))
struct ProgressTests {
    /// A configuration whose checks are quick: no reader, a recording, a simulated flash,
    /// a backend that refuses connections, nothing on the status port.
    func configuration() throws -> (directory: String, config: String) {
        try SupportBundleCommandTests().station()
    }

    /// Runs idkiosk with standard output and error on a pseudo-terminal; what the terminal showed.
    func onTerminal(_ arguments: [String]) -> ProcessOutcome {
        let command = ([IDKioskBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return runCapturing("/usr/bin/script", ["-q", "-e", "-f", "-c", command, "/dev/null"])
    }

    @Test func onATerminalEachCheckOfDiagAllIsNamedAndErasedBeforeTheTable() throws {
        let (directory, config) = try configuration()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shown = onTerminal(["diag", "all", "--config", config])
        #expect(shown.status == 2, "\(shown.stdout)")
        let screen = shown.stdout
        for step in ["[1/8] diag all: pcscd and the reader …", "[5/8] diag all: the backend", "[8/8] diag all: the vision models"] {
            #expect(screen.contains(step), "\(step) not in \(screen.debugDescription)")
        }
        // The line is erased (carriage return, erase to the end) before the table comes.
        let erase = "\r\u{1B}[K"
        let table = try #require(screen.range(of: "PASS  configuration") ?? screen.range(of: "configuration"))
        let lastErase = try #require(screen.range(of: erase, options: .backwards))
        #expect(lastErase.upperBound <= table.lowerBound, "\(screen.debugDescription)")
    }

    @Test func withJSONOrWithoutATerminalThereIsNoProgress() throws {
        let (directory, config) = try configuration()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // --json on a terminal: the output is the JSON alone.
        let json = onTerminal(["diag", "all", "--config", config, "--json"])
        #expect(!json.stdout.contains("diag all:"), "\(json.stdout.debugDescription)")
        #expect(!json.stdout.contains("\u{1B}[K"))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.replacingOccurrences(of: "\r\n", with: "\n").utf8))
        #expect((decoded as? [Any])?.isEmpty == false)
        // Standard error a pipe: nothing but the table on standard output, no progress on either.
        let piped = runCapturing(IDKioskBinary.path, ["diag", "all", "--config", config])
        #expect(!piped.stderr.contains("diag all:"), "\(piped.stderr)")
        #expect(!piped.stdout.contains("\u{1B}[K"))
        #expect(piped.stdout.contains("configuration"))
    }

    @Test func supportBundleNamesItsStepsOnATerminal() throws {
        let (directory, config) = try configuration()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shown = onTerminal(["support-bundle", "--config", config, "-o", directory + "/b.tar.gz"])
        #expect(shown.status == 1, "\(shown.stdout)")
        for step in ["[1/7] support-bundle: versions", "[2/8] diag all: the camera", "[5/7] support-bundle: the station's /metrics", "[7/7] support-bundle: writing"] {
            #expect(shown.stdout.contains(step), "\(step) not in \(shown.stdout.debugDescription)")
        }
        #expect(shown.stdout.contains("support bundle written: \(directory)/b.tar.gz"))
    }
}
