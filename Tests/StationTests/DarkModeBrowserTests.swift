import Display
import Foundation
import KioskTestKit
import Station
import Testing

/// `display.theme.dark: on` as `idkiosk serve` reads it, rendered by a real headless Chromium:
/// the page is really dark (before, the theme had no dark colours and stayed white).
/// Screenshots go to .build/artifacts/display/.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, Comment(rawValue: WebDriver.skipReason)))
struct DarkModeBrowserTests {
    static let artifacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/artifacts/display")

    /// The relative luminance (WCAG) of a computed `rgb(r, g, b)` colour.
    static func luminance(_ css: String) -> Double? {
        let numbers = css.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count >= 3 else { return nil }
        let linear = numbers.prefix(3).map { value -> Double in
            let v = value / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    @Test(arguments: ["display:\n  theme:\n    dark: on\n", "display:\n  theme:\n    dark: on\n    dark-background: \"#101418\"\n    dark-text: \"#e8e8e8\"\n"])
    func darkModeFromTheConfigurationIsADarkPage(yaml: String) async throws {
        let configuration = try Configuration.parse(yaml)
        let hub = DisplayHub(logger: StationHarness.logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let server = DisplayServer(
            configuration: .init(port: 0, theme: configuration.display.theme.display), hub: hub, preview: nil, logger: StationHarness.logger
        ) { port in
            continuation.yield(port)
            continuation.finish()
        }
        let running = Task { try await server.run() }
        defer { running.cancel() }
        guard let port = await EventProbe(ports).next() else { throw TestFailure("display server did not start") }
        await hub.publish(.station(.idle(startBy: [.card, .touch])))
        let browser = try await WebDriver.start(width: 1280, height: 800)
        do {
            try await browser.navigate(to: "http://127.0.0.1:\(port)/")
            _ = try await browser.waitFor("main[data-screen='idle']")
            let background = try await browser.execute("return getComputedStyle(document.body).backgroundColor") ?? ""
            let text = try await browser.execute("return getComputedStyle(document.querySelector('main h1')).color") ?? ""
            let dark = try #require(Self.luminance(background), "\(background)")
            let light = try #require(Self.luminance(text), "\(text)")
            // A dark page (below 5 % luminance; white is 100 %) with light text on it.
            #expect(dark < 0.05, "background \(background)")
            #expect((light + 0.05) / (dark + 0.05) >= 7, "text \(text) on \(background)")
            #expect(try await browser.execute("return getComputedStyle(document.documentElement).colorScheme") == "dark")
            try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
            let name = yaml.contains("dark-background") ? "dark-configured" : "dark-default"
            try await browser.saveScreenshot(to: Self.artifacts.appendingPathComponent("\(name).png").path)
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }
}
