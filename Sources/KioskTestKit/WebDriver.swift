import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1

/// A small W3C WebDriver client for a real headless Chromium (Debian's `chromium` and
/// `chromium-driver`): starts chromedriver on a free port, opens a session, navigates,
/// finds elements by CSS, clicks, reads text, waits with a bounded poll and takes
/// screenshots. Enough to click through the Default UI; not a general browser library.
/// HTTP goes through AsyncHTTPClient: FoundationNetworking refuses chromedriver's header lines
/// ("Content-Length:249", without a space) with "Failed writing header".
public actor WebDriver {
    /// An element of the page, as WebDriver references it.
    public struct Element: Hashable, Sendable {
        public let id: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Where chromedriver is, or nil when Debian's `chromium-driver` is not installed.
    public static var chromedriverPath: String? {
        executable(named: "chromedriver", fallbacks: ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"])
    }

    /// The browser binary (the real one, not Debian's wrapper script, when it exists).
    public static var chromiumPath: String? {
        executable(named: "chromium", fallbacks: ["/usr/lib/chromium/chromium", "/usr/bin/chromium"], preferFallbacks: true)
    }

    /// Whether the browser tests can run here.
    public static var isAvailable: Bool { chromedriverPath != nil && chromiumPath != nil }

    /// Why the browser tests skip: the missing Debian package.
    public static var skipReason: String {
        if chromedriverPath == nil { return "chromedriver not found: install Debian's chromium-driver (scripts/setup-debian.sh)" }
        if chromiumPath == nil { return "chromium not found: install Debian's chromium (scripts/setup-debian.sh)" }
        return "chromium and chromedriver are installed"
    }

    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    private let process: Process
    private let base: URL
    private let session: String
    private let logDirectory: URL
    private var quitted = false

    private init(process: Process, base: URL, session: String, logDirectory: URL) {
        self.process = process
        self.base = base
        self.session = session
        self.logDirectory = logDirectory
    }

    /// Starts chromedriver and a headless Chromium session.
    ///
    /// - Parameters:
    ///   - width: the window's width in CSS pixels (screenshots have this size).
    ///   - height: the window's height.
    ///   - language: the browser's UI language (`--lang`).
    /// - Throws: `Failure` when chromedriver does not start or refuses the session.
    public static func start(width: Int = 1280, height: Int = 800, language: String = "en-GB") async throws -> WebDriver {
        guard let driver = chromedriverPath, let chromium = chromiumPath else { throw Failure(skipReason) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-webdriver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("chromedriver.out")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: driver)
        process.arguments = ["--port=0"]
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let port: Int
        do {
            port = try await waitForPort(in: log)
        } catch {
            process.terminate()
            throw error
        }
        let base = URL(string: "http://127.0.0.1:\(port)")!
        let profile = directory.appendingPathComponent("profile").path
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": chromium,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=\(width),\(height)", "--lang=\(language)", "--user-data-dir=\(profile)",
                            "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                        ],
                    ],
                ]
            ]
        ]
        do {
            let answer = try await request("POST", base.appendingPathComponent("session"), body: capabilities)
            guard let value = answer as? [String: Any], let session = value["sessionId"] as? String else {
                throw Failure("chromedriver gave no session: \(answer)")
            }
            let driver = WebDriver(process: process, base: base, session: session, logDirectory: directory)
            try await driver.setViewport(width: width, height: height)
            return driver
        } catch {
            process.terminate()
            throw error
        }
    }

    /// Ends the session (Chromium quits) and stops chromedriver.
    public func quit() async {
        guard !quitted else { return }
        quitted = true
        _ = try? await command("DELETE", "")
        _ = try? await Self.exchange("GET", base.appendingPathComponent("shutdown"), json: nil)
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: logDirectory)
    }

    /// Sizes the window so that the page's viewport (what screenshots show) is `width` × `height`.
    private func setViewport(width: Int, height: Int) async throws {
        let chrome = try await execute("return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight].join(',')")
        let extra = (chrome ?? "0,0").split(separator: ",").map { Int($0) ?? 0 }
        _ = try await command("POST", "/window/rect", ["width": width + extra[0], "height": height + (extra.count > 1 ? extra[1] : 0)])
    }

    // MARK: Page

    public func navigate(to url: String) async throws {
        _ = try await command("POST", "/url", ["url": url])
    }

    /// The first element matching `css`, or nil.
    public func element(_ css: String) async throws -> Element? {
        try await elements(css).first
    }

    /// Every element matching `css`, in document order.
    public func elements(_ css: String) async throws -> [Element] {
        let value = try await command("POST", "/elements", ["using": "css selector", "value": css])
        return (value as? [[String: Any]] ?? []).compactMap { ($0[Self.elementKey] as? String).map(Element.init(id:)) }
    }

    public func click(_ element: Element) async throws {
        _ = try await command("POST", "/element/\(element.id)/click", [:])
    }

    /// The element's rendered text (what a person sees).
    public func text(_ element: Element) async throws -> String {
        try await command("GET", "/element/\(element.id)/text") as? String ?? ""
    }

    public func isDisplayed(_ element: Element) async throws -> Bool {
        try await command("GET", "/element/\(element.id)/displayed") as? Bool ?? false
    }

    public func attribute(_ name: String, of element: Element) async throws -> String? {
        try await command("GET", "/element/\(element.id)/attribute/\(name)") as? String
    }

    /// Runs JavaScript in the page; a string result as it is, any other as JSON text, `null` as nil.
    public func execute(_ script: String, _ arguments: [String] = []) async throws -> String? {
        let value = try await command("POST", "/execute/sync", ["script": script, "args": arguments])
        if value is NSNull { return nil }
        if let text = value as? String { return text }
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]), as: UTF8.self)
    }

    /// A PNG of the viewport.
    public func screenshot() async throws -> Data {
        guard let base64 = try await command("GET", "/screenshot") as? String, let data = Data(base64Encoded: base64) else {
            throw Failure("no screenshot")
        }
        return data
    }

    /// Writes a PNG of the viewport to `path`, creating its directory.
    public func saveScreenshot(to path: String) async throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await screenshot().write(to: url)
    }

    // MARK: Waiting

    /// Polls `condition` every `interval` until it holds; throws after `limit` (a bound, not a measurement).
    public func waitUntil(
        _ description: String, limit: Duration = .seconds(15), interval: Duration = .milliseconds(100),
        _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + limit
        var lastError: (any Error)?
        while ContinuousClock.now < deadline {
            do {
                if try await condition() { return }
            } catch {
                lastError = error
            }
            try await Task.sleep(for: interval)
        }
        throw Failure("waited \(limit) for \(description)" + (lastError.map { " (last error: \($0))" } ?? ""))
    }

    /// Waits for a displayed element matching `css` (whose text contains `text`, when given).
    @discardableResult
    public func waitFor(_ css: String, containing text: String? = nil, limit: Duration = .seconds(15)) async throws -> Element {
        var found: Element?
        try await waitUntil("\(css)" + (text.map { " containing '\($0)'" } ?? ""), limit: limit) {
            for element in try await elements(css) where try await isDisplayed(element) {
                if let text, try await !self.text(element).contains(text) { continue }
                found = element
                return true
            }
            return false
        }
        guard let found else { throw Failure("lost \(css)") }
        return found
    }

    /// Waits for `css` and clicks it.
    public func click(_ css: String, containing text: String? = nil) async throws {
        let element = try await waitFor(css, containing: text)
        try await click(element)
    }

    // MARK: Protocol

    private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any {
        let url = URL(string: base.absoluteString + "/session/\(session)" + path)!
        let json = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (data, status) = try await Self.exchange(method, url, json: json)
        return try Self.value(data, status: status, method: method, url: url)
    }

    /// One WebDriver call: JSON in, the answer's `value` out; a WebDriver error becomes `Failure`.
    private static func request(_ method: String, _ url: URL, body: [String: Any]?) async throws -> Any {
        let json = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (data, status) = try await exchange(method, url, json: json)
        return try value(data, status: status, method: method, url: url)
    }

    private static func exchange(_ method: String, _ url: URL, json: Data?) async throws -> (Data, Int) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        if let json {
            request.body = .bytes(ByteBuffer(bytes: json))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 64 << 20)
        return (Data(body.readableBytesView), Int(response.status.code))
    }

    private static func value(_ data: Data, status: Int, method: String, url: URL) throws -> Any {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        let value = (object as? [String: Any])?["value"] ?? NSNull()
        if status >= 400 {
            let error = (value as? [String: Any])?["error"] as? String ?? "HTTP \(status)"
            let message = (value as? [String: Any])?["message"] as? String ?? ""
            throw Failure("WebDriver \(method) \(url.path): \(error): \(message.prefix(300))")
        }
        return value
    }

    private static func waitForPort(in log: URL) async throws -> Int {
        let marker = "started successfully on port "
        for _ in 0..<200 {
            if let text = try? String(contentsOf: log, encoding: .utf8), let range = text.range(of: marker) {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) { return port }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure("chromedriver did not report its port: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    private static func executable(named name: String, fallbacks: [String], preferFallbacks: Bool = false) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
        let candidates = preferFallbacks ? fallbacks + path : path + fallbacks
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
