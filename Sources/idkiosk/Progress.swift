import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a command is doing while it works, on one line of standard error that it rewrites:
/// the step (`[3/9] camera: test capture`) and, after a second, how long it has taken.
///
/// Shown only when standard error is a terminal and the command does not write JSON: a
/// technician watching a slow step wants to know it is alive, a script reading the output
/// wants none of it. Every command uses this one type, so they all look alike.
final class Progress: Sendable {
    /// Whether anything is written.
    let enabled: Bool
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let ticker = Mutex<Task<Void, Never>?>(nil)

    private struct State {
        var text: String?
        var started = ContinuousClock.now
        var shown = false
    }

    /// - Parameters:
    ///   - enabled: false writes nothing (not a terminal, or `--json`).
    ///   - write: where the text goes; standard error for a command, anything in a test.
    init(enabled: Bool, write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    /// Progress on standard error when it is a terminal and `json` is false.
    static func terminal(json: Bool) -> Progress {
        Progress(enabled: !json && isatty(STDERR_FILENO) == 1) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    /// Progress that writes nothing (a step called from a place that shows its own).
    static let silent = Progress(enabled: false) { _ in }

    /// Starts a step: `[index/total] text`, or `text` without a count.
    func step(_ text: String, _ index: Int? = nil, of total: Int? = nil) {
        guard enabled else { return }
        let line = Self.render(text, index: index, total: total)
        state.withLock {
            $0.text = line
            $0.started = .now
            $0.shown = true
        }
        write(Self.clearLine + line)
        startTicker()
    }

    /// A line that stays (a warning the person must read), above the step's line.
    func note(_ line: String) {
        guard enabled else { return }
        let current = state.withLock { $0.shown ? $0.text : nil }
        write(Self.clearLine + line + "\n" + (current ?? ""))
    }

    /// Clears the line: the command's own output comes next.
    func finish() {
        guard enabled else { return }
        ticker.withLock {
            $0?.cancel()
            $0 = nil
        }
        let shown = state.withLock { state -> Bool in
            defer { state = State() }
            return state.shown
        }
        if shown { write(Self.clearLine) }
    }

    /// Runs `body` as one step and clears the line afterwards.
    func run<T>(_ text: String, _ body: () async throws -> T) async rethrows -> T {
        step(text)
        defer { finish() }
        return try await body()
    }

    /// The step's line: the count and the text.
    static func render(_ text: String, index: Int?, total: Int?) -> String {
        (index.flatMap { i in total.map { "[\(i)/\($0)] " } } ?? "") + text + " …"
    }

    /// How long the step has taken, once it is over a second.
    static func elapsed(_ time: Duration) -> String {
        time >= .seconds(1) ? " \(time.components.seconds) s" : ""
    }

    /// Carriage return and ANSI "erase to end of line".
    static let clearLine = "\r\u{1B}[K"

    /// Rewrites the line once a second with the step's time, so a long step shows it is alive.
    private func startTicker() {
        ticker.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    guard let self, !Task.isCancelled else { return }
                    let line = self.state.withLock { state -> String? in
                        guard state.shown, let text = state.text else { return nil }
                        return text + Self.elapsed(ContinuousClock.now - state.started)
                    }
                    if let line { self.write(Self.clearLine + line) }
                }
            }
        }
    }
}
