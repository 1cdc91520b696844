import AsyncHTTPClient
import Backend
import Foundation
import KioskTestKit
@testable import ReferenceBackend
import Station
import Testing

/// A paper document at the whole station (`journey.workflow: document`): the file camera
/// plays the generated recording of a bill's two pages placed on the platen one after the
/// other, a person in a real headless Chromium watches the page count and says "that was the
/// last page"; the real reference backend receives both pages and decides. Screenshots go to
/// .build/artifacts/e2e/.
@Suite(
    .serialized,
    .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)),
    .enabled(if: WebDriver.isAvailable, Comment(rawValue: WebDriver.skipReason)),
    .enabled(if: DemoStack.canStartPaper, Comment(rawValue: "needs \(VisionDataSet.paperMissing)")))
struct PaperDocumentEndToEndIntegrationTests {
    @Test func aPersonPutsTwoPagesOnThePlatenAndTheBackendReceivesBoth() async throws {
        var options = DemoStack.Options()
        options.workflow = "document"
        options.document = "paper/sequences/demo-pages"
        options.resultSeconds = 120
        let stack = try await DemoStack(options)
        let browser = try await WebDriver.start(width: 1280, height: 800)
        let e2e = DefaultUIEndToEndIntegrationTests()
        do {
            try await browser.navigate(to: stack.displayURL)
            try await e2e.screen(browser, "idle")
            try await browser.click("button[data-action='startJourney']")
            // Consent, when the backend asks for it.
            if (try? await browser.waitFor("main[data-screen='consent']", limit: .seconds(20))) != nil {
                try await browser.click("button[data-action='accept']")
            }
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='document']", limit: .seconds(60))
            try await e2e.shoot(browser, "paper-01-first-page")
            // "That was the last page" is offered only once a page was taken.
            #expect(try await browser.execute("return document.querySelector(\"button[data-action='lastPage']\").hidden ? 'hidden' : 'shown'") == "hidden")
            // Page 1 is placed, taken; the screen asks for the next; page 2 is placed, taken.
            _ = try await browser.waitFor("#instruction", containing: "Page 2", limit: .seconds(60))
            try await e2e.shoot(browser, "paper-02-next-page")
            _ = try await browser.waitFor("#instruction", containing: "Page 3", limit: .seconds(60))
            let count = try await browser.text(try await browser.waitFor("#page-count"))
            #expect(count.contains("2"), "\(count)")
            let button = try await browser.waitFor("button[data-action='lastPage']")
            // A touch target of at least 44 px, labelled.
            let height = try await browser.execute("return String(document.querySelector(\"button[data-action='lastPage']\").getBoundingClientRect().height)")
            #expect((Double(height ?? "0") ?? 0) >= 44)
            #expect(try await browser.text(button).isEmpty == false)
            try await e2e.shoot(browser, "paper-03-two-pages")
            try await browser.click(button)
            try await e2e.screen(browser, "confirmation")
            try await browser.click("button[data-action='confirm']")
            try await e2e.screen(browser, "result")
            let decision = try await browser.waitFor("#decision:not([data-decision='pending'])", limit: .seconds(60))
            let shown = try await browser.attribute("data-decision", of: decision)
            try await e2e.shoot(browser, "paper-04-result")

            // The backend's own record: both pages of the DOCUMENT credential, in order.
            try await stack.waitForOutput("workflowExecution=")
            let line = try #require(stack.serve.output.split(separator: "\n").first { $0.contains("decision") && $0.contains("workflowExecution=") })
            let execution = try #require(line.split(separator: " ").first { $0.hasPrefix("workflowExecution=") }.map { String($0.dropFirst("workflowExecution=".count)) })
            let store = try SQLiteReferenceStore(path: stack.database)
            let parts = try await store.parts(executionId: execution)
            #expect(parts.map(\.classifier.rawValue).sorted() == ["PAGE_1", "PAGE_2"], "\(parts.map(\.classifier))")
            #expect(parts.allSatisfy { $0.category == .DOCUMENT })
            // Each page a crop of print at 7 px/mm, upright (portrait A4: 1470 x 2079).
            for part in parts {
                #expect(ReferenceChecks.jpegDimensions(part.body).map { [$0.width, $0.height] } == [1470, 2079])
            }
            // The backend judged each page usable and the pages complete: the decision shown is its PASSED.
            let row = try #require(try await store.execution(clientId: stack.clientID, executionId: execution))
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: try #require(row.result))
            let notPassed = details.capabilities.all.filter { $0.decision != .PASSED }
            #expect(notPassed.isEmpty, "\(notPassed)")
            #expect(details.capabilities.dataChecks.first { $0.id == "documentPages" }?.decision == .PASSED)
            #expect(Set(details.capabilities.usability.map(\.id)) == ["usability-PAGE_1", "usability-PAGE_2"])
            #expect(shown == details.decision.type.rawValue)
            #expect(details.decision.type == .PASSED)
        } catch {
            try? await e2e.shoot(browser, "paper-failure")
            print(stack.serve.output.suffix(4000))
            await browser.quit()
            await stack.stop()
            throw error
        }
        await browser.quit()
        await stack.stop()
    }
}
