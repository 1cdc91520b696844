import Display
import Foundation
import KioskTestKit
import ScanFlow
import Testing

/// Every screen of the Default UI through ``AccessibilityAudit`` at 200 % zoom (the kiosk's
/// 1280 x 800 screen is then a 640 x 400 window), in the light theme, in dark mode and in
/// the high-contrast theme the person turns on at the screen.
extension DefaultUITests {
    /// The screens one scripted journey passes, with the modals; `audit` runs on each.
    func visitEveryScreen(_ browser: WebDriver, _ station: ScriptedStation, _ server: TestDisplayServer, audit: (String) async throws -> Void) async throws {
        try await screen(browser, "idle")
        try await audit("idle")
        try await browser.click("button[data-action='startJourney']")
        try await screen(browser, "consent")
        try await audit("consent")
        try await browser.click("button[data-tick='privacy']")
        try await audit("consent ticked")
        try await browser.click("button[data-action='accept']")
        try await screen(browser, "selectCountry")
        try await audit("selectCountry")
        try await browser.click("button[data-action='country-DEU']")
        try await screen(browser, "selectDocument")
        try await audit("selectDocument")
        try await browser.click("button[data-action='document-passport-plastic']")
        try await browser.waitFor("main[data-screen='scan'] section[data-part='front']")
        #expect(await station.requested.next() == .capture(.docFinder))
        await station.update(.extractionState(.tilt(current: 12, target: 0)))
        try await browser.waitFor("#tilt")
        try await audit("scan front")
        try await browser.click("button[data-action='help']")
        try await browser.waitFor("#modal[data-kind='help']")
        try await audit("help")
        try await continueAfterHelp(browser, station)
        await station.capture(mrzRead: false)
        try await screen(browser, "reject")
        try await audit("reject")
        try await browser.click("button[data-action='retake']")
        #expect(await station.requested.next() == .capture(.docFinder))
        await station.capture(mrzRead: false)
        try await screen(browser, "retry")
        try await audit("retry with the fallback offered")
        try await browser.click("button[data-action='retake']")
        #expect(await station.requested.next() == .capture(.docFinder))
        await station.capture(mrzRead: false)
        try await screen(browser, "confirmation")
        try await audit("confirmation")
        try await browser.click("button[data-action='confirm']")
        try await browser.waitFor("main[data-screen='chipKey']")
        try await audit("chipKey")
        try await browser.click("button[data-kind='can']")
        for key in "123456" { try await browser.click("button.key[data-key='\(key)']") }
        try await browser.click("button[data-action='enterChipKey']")
        try await screen(browser, "nfc")
        #expect(await station.requested.next() == .chipRead)
        try await audit("nfc")
        await station.readChip(progress: [40], finish: false)
        try await browser.waitFor("#nfc-percent", containing: "40")
        try await audit("nfc progress")
        await station.readChip(progress: [100])
        try await browser.waitFor("main[data-screen='scan'] section[data-part='face']")
        #expect(await station.requested.next() == .capture(.faceLiveness))
        await station.update(.extractionState(.tiltFace(.left)))
        try await audit("scan face")
        await station.inactivityTimerFired()
        try await browser.waitFor("#modal[data-kind='inactivity']")
        try await audit("inactivity")
        try await browser.click("button[data-action='userIsPresent']")
        try await browser.waitUntil("the warning closes") { try await browser.element("#modal[data-kind]") == nil }
        try await browser.click("button[data-action='cancel']")
        try await browser.waitFor("#modal[data-kind='cancel']")
        try await audit("cancel")
        try await browser.click("button[data-action='continueJourney']")
        try await browser.waitUntil("the question closes") { try await browser.element("#modal[data-kind]") == nil }
        // Help at the face offers the face's own fallback.
        try await browser.click("button[data-action='help']")
        try await browser.waitFor("#modal button[data-action='switchToFallback']")
        try await audit("help at the face")
        try await continueAfterHelp(browser, station)
        await station.capture()
        try await screen(browser, "finalizing")
        try await audit("finalizing")
        #expect(await station.requested.next() == .finalize)
        await station.finalize(failing: FlowError(.A, detail: "100503"))
        try await screen(browser, "error")
        try await audit("error")
        try await browser.click("button[data-action='retryAfterError']")
        #expect(await station.requested.next() == .finalize)
        await station.finalize()
        try await screen(browser, "result")
        await server.hub.publish(.station(.decision(reference: "7f3c9a1e-4b2d-4c8e-9f1a-2b3c4d5e6f70", decision: "PASSED")))
        try await browser.waitFor("#decision[data-decision='PASSED']")
        try await audit("result")

        await server.hub.publish(.station(.starting))
        try await screen(browser, "starting")
        try await audit("starting")
        await server.hub.show(.error(FlowError(.C, detail: "100401")), answering: nil)
        try await browser.waitFor("section[data-refused='true']")
        try await audit("refused")
        await server.hub.publish(.station(.outOfService(devices: [
            DeviceStatus(.camera, available: false, detail: "no camera named usb-046d_HD_Pro_Webcam_C920"),
            DeviceStatus(.backend, available: false, detail: "the verification backend does not answer"),
        ])))
        try await screen(browser, "outOfService")
        try await audit("outOfService")

        // The staff screen, from a journey stuck at its data page.
        await station.returnToIdle()
        try await screen(browser, "idle")
        try await browser.click("button[data-action='startJourney']")
        try await choosePassport(browser, station)
        try await browser.click("button[data-action='help']")
        try await browser.click("#modal button[data-action='switchToFallback']")
        try await browser.waitFor("main[data-screen='scan'] section[data-mode='manual']")
        try await audit("scan manual")
        for _ in 0..<2 {
            try await browser.click("button[data-action='help']")
            try await continueAfterHelp(browser, station)
        }
        try await browser.click("button[data-action='help']")
        try await screen(browser, "askStaff")
        try await audit("askStaff")
    }

    @Test(arguments: ["light", "dark", "high contrast"])
    func everyScreenPassesTheAccessibilityChecksAt200PercentZoom(theme: String) async throws {
        var configuration = DisplayServer.Configuration(port: 0)
        configuration.theme.appearance = theme == "dark" ? .dark : .light
        // Each failure, then a retake, then the offered fallback: the reject, retry and help views.
        let outcomes: [Controller.PartOutcome] = [.rejected([.front: .glare]), .retry(Retry.Reason(code: 12, message: "Document too far away"))]
        var problems: [String] = []
        try await withKiosk(configuration: configuration, outcomes: outcomes, window: (640, 400)) { browser, station, server in
            try await screen(browser, "idle")
            if theme == "high contrast" {
                try await browser.click("button[data-action='contrast']")
                try await browser.waitFor("button[data-action='contrast'][aria-pressed='true']")
                #expect(try await browser.execute("return getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)")
            }
            try await visitEveryScreen(browser, station, server) { name in
                if theme == "high contrast", try await browser.element("html[data-contrast='high']") == nil {
                    // A new idle screen returns to the configured contrast: the person turns it on again.
                    try await browser.click("button[data-action='contrast']")
                }
                let found = try await AccessibilityAudit.run(browser)
                problems += found.map { "\(theme) \(name): \($0)" }
                try await shoot(browser, "a11y-\(theme.replacingOccurrences(of: " ", with: "-"))-\(name.replacingOccurrences(of: " ", with: "-"))")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
