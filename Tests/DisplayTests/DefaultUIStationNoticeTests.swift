import Display
import Foundation
import KioskTestKit
import ScanFlow
import Testing

extension DefaultUITests {
    /// The station's notices in the browser: a document lifted during the chip read is asked
    /// back and the progress returns; after the journey the backend's decision and the
    /// reference stand on the result screen, also after a language switch.
    @Test func aLiftedDocumentIsAskedBackAndTheDecisionIsShown() async throws {
        try await withKiosk { browser, station, server in
            try await startAndReachTheReader(browser, station)
            await station.readChip(progress: [30], finish: false)
            try await browser.waitFor("#nfc-percent", containing: "30")

            await server.hub.publish(.station(.documentLifted))
            try await browser.waitFor("main[data-screen='nfc'][data-lifted='true'] #nfc-text", containing: "Put it back")
            try await shoot(browser, "30-nfc-lifted")
            await server.hub.publish(.station(.documentReturned))
            try await browser.waitFor("main[data-lifted='false'] #nfc-text", containing: "Keep the document on the reader")
            await station.readChip(progress: [80, 100])

            #expect(await station.requested.next() == .capture(.faceLiveness))
            await station.capture()
            #expect(await station.requested.next() == .finalize)
            await station.finalize()
            try await screen(browser, "result")
            await server.hub.publish(.station(.decision(reference: "w-42", decision: nil)))
            try await browser.waitFor("#decision[data-decision='pending']")
            await server.hub.publish(.station(.decision(reference: "w-42", decision: "PASSED")))
            try await browser.waitFor("#decision[data-decision='PASSED']", containing: "Verified")
            #expect(try await text(browser, "#reference").contains("w-42"))
            try await shoot(browser, "31-result-decision")
            try await browser.click("button[data-language='de']")
            try await browser.waitFor("#decision[data-decision='PASSED']", containing: "Bestätigt")
        }
    }
}
