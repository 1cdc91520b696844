import AsyncHTTPClient
import Backend
import Foundation
import KioskTestKit
import Station
import VirtualPassport
import Testing

/// The whole station as `make demo` runs it (pcscd with the virtual passport, the reference
/// backend, the file camera, `idkiosk serve`), and a person in a real headless Chromium
/// clicking through the Default UI. Screenshots of each screen go to
/// .build/artifacts/e2e/; at the end the backend's record is checked.
@Suite(
    .serialized,
    .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)),
    .enabled(if: WebDriver.isAvailable, Comment(rawValue: WebDriver.skipReason)),
    .enabled(if: DemoStack.canStart, Comment(rawValue: "needs \(DemoStack.missing)")))
struct DefaultUIEndToEndIntegrationTests {
    static let artifacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/artifacts/e2e")

    func shoot(_ browser: WebDriver, _ name: String) async throws {
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        try await browser.saveScreenshot(to: Self.artifacts.appendingPathComponent("\(name).png").path)
    }

    func screen(_ browser: WebDriver, _ name: String, limit: Duration = .seconds(60)) async throws {
        _ = try await browser.waitFor("main[data-screen='\(name)']", limit: limit)
    }

    @Test func aPersonClicksThroughTheWholeJourneyAndTheBackendDecides() async throws {
        var options = DemoStack.Options()
        options.resultSeconds = 120
        let stack = try await DemoStack(options)
        let browser = try await WebDriver.start(width: 1280, height: 800)
        do {
            try await browser.navigate(to: stack.displayURL)
            try await screen(browser, "idle")
            try await shoot(browser, "01-idle")
            try await browser.click("button[data-action='startJourney']")

            try await screen(browser, "consent")
            try await shoot(browser, "02-consent")
            try await browser.click("button[data-action='accept']")

            // The data page: the file camera's recording comes into focus and is taken by itself.
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='front']", limit: .seconds(60))
            // For the screenshot only: the preview's first frame, if it comes before the capture.
            try? await browser.waitUntil("the preview shows a frame", limit: .seconds(3)) {
                try await browser.execute("const i = document.getElementById('preview'); return i && i.naturalWidth > 0 ? 'yes' : 'no'") == "yes"
            }
            try await shoot(browser, "03-scan-front")
            try await screen(browser, "confirmation")
            try await shoot(browser, "04-confirmation")
            try await browser.click("button[data-action='confirm']")

            // The chip: the virtual passport on the reader, read with the MRZ's key.
            try await screen(browser, "nfc")
            try await shoot(browser, "05-nfc")

            // The face, then the result with the backend's decision.
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='face']", limit: .seconds(60))
            try await shoot(browser, "06-scan-face")
            try await screen(browser, "result")
            let decision = try await browser.waitFor("#decision:not([data-decision='pending'])", limit: .seconds(60))
            let shown = try await browser.attribute("data-decision", of: decision)
            try await shoot(browser, "07-result")

            // The backend's own record: decision, parts received, chip verified at the backend.
            try await stack.waitForOutput("workflowExecution=")
            let line = try #require(stack.serve.output.split(separator: "\n").first { $0.contains("decision") && $0.contains("workflowExecution=") })
            func field(_ name: String) -> String? {
                line.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
            }
            let execution = ExecutionRef(
                accountId: try #require(field("account")), workflowExecutionId: try #require(field("workflowExecution")), sessionToken: "")
            let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
            let backend = HTTPVerificationBackend(
                configuration: .init(baseURL: "http://127.0.0.1:\(stack.backendPort)", clientId: stack.clientID, clientSecret: stack.clientSecret),
                httpClient: httpClient, clock: ContinuousClock(), logger: StationHarness.logger)
            let details = try await backend.retrieve(execution)
            try await httpClient.shutdown()
            #expect(details.workflow.status == .PROCESSED)
            // The display shows the backend's decision. The reference backend has no face model,
            // so similarity and liveness are NOT_EXECUTED and the best it says is WARNING; every
            // other check passed.
            #expect(shown == details.decision.type.rawValue)
            #expect(details.decision.type == .WARNING, "\(details.capabilities.all)")
            let notPassed = details.capabilities.all.filter { $0.decision != .PASSED }
            #expect(Set(notPassed.map(\.decision)) == [.NOT_EXECUTED], "\(notPassed)")
            #expect(notPassed.allSatisfy { details.capabilities.liveness.contains($0) || details.capabilities.similarity.contains($0) }, "\(notPassed)")
            let chip = details.capabilities.chipAuthentication.first { $0.id == "passiveAuthentication" }
            #expect(chip?.decision == .PASSED, "\(details.capabilities.chipAuthentication)")
            #expect(!details.capabilities.usability.isEmpty)
        } catch {
            try? await shoot(browser, "failure")
            await browser.quit()
            await stack.stop()
            throw error
        }
        await browser.quit()
        await stack.stop()
    }
}
