import Display
import Foundation
import KioskTestKit
import ScanFlow
import Testing

/// The screens for when things go wrong, in the browser: consent item by item, a journey
/// that cannot start, and a way out of every screen where a person can get stuck.
extension DefaultUITests {
    /// Seeds: a passive item is a notice; each active item needs a tap of its own, and the
    /// journey goes on only when every one is ticked.
    @Test func eachActiveConsentItemNeedsItsOwnTap() async throws {
        try await withKiosk { browser, station, _ in
            try await browser.click("button[data-action='startJourney']")
            try await screen(browser, "consent")
            // The passive item is a notice without a switch; the active one is a switch.
            #expect(try await browser.element("button[data-tick='retention']") == nil)
            #expect(try await text(browser, "article[data-item='retention'] .notice") == "Please note:")
            let tick = "button[data-tick='privacy']"
            #expect(try await browser.attribute("role", of: try await browser.waitFor(tick)) == "checkbox")
            let accept = "button[data-action='accept']"
            func acceptEnabled() async throws -> Bool {
                try await browser.execute("return document.querySelector(\"\(accept)\").disabled ? 'off' : 'on'") == "on"
            }
            #expect(try await !acceptEnabled())
            #expect(try await text(browser, "#consent-hint").contains("Tap each item"))
            // A tap on the disabled button sends nothing.
            _ = try await browser.execute("document.querySelector(\"\(accept)\").click(); return 'clicked'")
            try await browser.click(tick)
            try await browser.waitFor("\(tick)[aria-checked='true']")
            #expect(try await acceptEnabled())
            try await browser.click(tick)
            try await browser.waitFor("\(tick)[aria-checked='false']")
            #expect(try await !acceptEnabled())
            try await browser.click(tick)
            try await browser.click(accept)
            try await screen(browser, "selectCountry")
            let consents = await station.commands.filter { if case .flow(.userConsented) = $0 { true } else { false } }
            // Only the active item is answered, once, after its tap.
            #expect(consents == [.flow(.userConsented(itemID: "privacy", decision: true))])
        }
    }

    /// A journey the backend refused to start says what happened and what to do, by cause;
    /// with `backend.offline: refuse` the station's next screen is out of service, naming the
    /// connection to the verification service.
    @Test func aJourneyThatCannotStartSaysWhyAndWhatToDo() async throws {
        try await withKiosk { browser, _, server in
            try await screen(browser, "idle")
            let causes: [(FlowError, String, String, String)] = [
                (FlowError(.E, detail: "100000"), "offline", "cannot reach the verification service", "try again later"),
                (FlowError(.C, detail: "100401"), "setup", "not set up correctly", "tell them this code"),
                (FlowError(.J), "session", "has expired", "try again"),
                (FlowError(.L), "reference", "earlier check cannot be used", "Check the reference"),
            ]
            for (error, cause, what, todo) in causes {
                await server.hub.publish(.station(.starting))
                try await screen(browser, "starting")
                await server.hub.show(.error(error), answering: nil)
                try await browser.waitFor("main[data-screen='result'] section[data-refused='true'][data-cause='\(cause)']")
                #expect(try await text(browser, "main h1") == "Your check could not start")
                #expect(try await text(browser, "#refused-what").contains(what), "\(cause)")
                #expect(try await text(browser, "#refused-todo").contains(todo), "\(cause)")
                #expect(try await text(browser, "#error-code") == error.code)
                try await shoot(browser, "60-refused-\(cause)")
                await server.hub.publish(.station(.idle(startBy: [.card, .touch])))
                try await screen(browser, "idle")
            }
            await server.hub.publish(.station(.outOfService(devices: [DeviceStatus(.backend, available: false, detail: "the verification backend does not answer")])))
            try await screen(browser, "outOfService")
            #expect(try await text(browser, "li[data-device='backend']").contains("Connection to the verification service"))
            try await shoot(browser, "61-out-of-service-backend")
        }
    }

    /// A document that is never found: help is always there, and counts as a try; the help
    /// offers the seeds' fallback (take the photo yourself); when that does not work either,
    /// after the configured tries, a screen asks for staff, lets the person try once more,
    /// or stop, which cancels the journey and deletes their data, and says so.
    @Test func aPersonWhoIsStuckGetsHelpTheFallbackThenStaffAndCanStop() async throws {
        try await withKiosk { browser, station, _ in
            try await browser.click("button[data-action='startJourney']")
            try await choosePassport(browser, station)
            try await browser.waitFor("main[data-screen='scan'] section[data-mode='docFinder']")
            try await browser.click("button[data-action='help']")
            try await browser.waitFor("#modal[data-kind='help'] button[data-action='switchToFallback']", containing: "Take the photo myself")
            try await shoot(browser, "62-help-fallback")
            try await browser.click("#modal button[data-action='switchToFallback']")
            try await browser.waitFor("main[data-screen='scan'] section[data-mode='manual']")
            #expect(await station.commands.contains(.flow(.switchToFallback)))

            // In the manual mode there is no simpler one: the third help asks for staff (3 tries).
            for _ in 0..<2 {
                try await browser.click("button[data-action='help']")
                #expect(try await browser.element("#modal button[data-action='switchToFallback']") == nil)
                try await continueAfterHelp(browser, station)
            }
            try await browser.click("button[data-action='help']")
            try await screen(browser, "askStaff")
            #expect(try await text(browser, "main h1") == "Please ask a member of staff for help")
            #expect(try await text(browser, "#ask-staff-stop").contains("everything you have provided is deleted"))
            #expect(try await browser.element("#modal[data-kind]") == nil)
            try await shoot(browser, "63-ask-staff")

            // Once more: back to the scan, detection resumed.
            try await browser.click("button[data-action='tryAgain']")
            try await browser.waitFor("main[data-screen='scan'] section[data-mode='manual']")
            #expect(await station.commands.last == .flow(.retryScan))
            // Still stuck: staff again, and this time the person stops.
            try await browser.click("button[data-action='help']")
            try await screen(browser, "askStaff")
            try await browser.click("button[data-action='stopAndDelete']")
            try await screen(browser, "result")
            #expect(try await text(browser, "main h1").contains("Your data has been deleted"))
            #expect(await station.commands.last == .flow(.cancel))
        }
    }

    /// The chip: help at the reader, and going on without the chip, whenever the person likes.
    @Test func theReaderScreenOffersHelpAndGoingOnWithoutTheChip() async throws {
        try await withKiosk { browser, station, _ in
            try await startAndReachTheReader(browser, station)
            try await browser.click("main button[data-action='help']")
            try await browser.waitFor("#modal[data-kind='help']", containing: "go on without it")
            try await shoot(browser, "64-nfc-help")
            try await browser.click("#modal button[data-action='switchToFallback']")
            try await browser.waitFor("main[data-screen='scan'] section[data-part='face']")
            // The face: its help offers the face's own fallback.
            try await browser.click("button[data-action='help']")
            try await browser.waitFor("#modal button[data-action='switchToFallback']")
            try await browser.click("#modal button[data-action='switchToFallback']")
            try await browser.waitFor("main[data-screen='scan'] section[data-mode='faceManual']")
        }
    }
}
