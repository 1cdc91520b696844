import Display
import Foundation
import Imaging
import KioskTestKit
import ScanFlow
import Testing

/// The Default UI in a real headless Chromium (Debian's chromium + chromium-driver over
/// WebDriver), against a display server whose station runs a real `ScanFlow.Controller`.
/// Screenshots of every screen go to .build/artifacts/display/.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, Comment(rawValue: WebDriver.skipReason)))
struct DefaultUITests {
    static let artifacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/artifacts/display")

    static let privacy = ConsentItem(
        id: "privacy", type: .active,
        text: "I agree that my identity document and a picture of my face are checked to verify my identity.",
        url: "https://example.org/privacy"
    )
    static let retention = ConsentItem(id: "retention", type: .passive, text: "Pictures are deleted after 30 days.", url: "")

    /// A passport (Austria) or an identity card (Germany), with its chip, then the face.
    static let workflow = Workflow(
        credentials: [
            Credential.Info(
                id: "id-1", category: .id,
                countries: ["AUT": [Document(.passport)], "DEU": [Document(.identityCard), Document(.passport)]],
                chipReading: true
            ),
            Credential.Info(id: "face-1", category: .face),
        ],
        consentItems: [privacy, retention],
        token: SessionToken("ui-test-token"),
        tokenLifetime: .seconds(600)
    )

    /// Runs `body` with a server, a scripted station and a browser on the page.
    func withKiosk(
        configuration: DisplayServer.Configuration = DisplayServer.Configuration(port: 0),
        outcomes: [Controller.PartOutcome] = [],
        window: (width: Int, height: Int) = (1280, 800),
        _ body: (WebDriver, ScriptedStation, TestDisplayServer) async throws -> Void
    ) async throws {
        try await TestDisplayServer.with(configuration: configuration, preview: TestPatternPreview()) { server in
            let station = ScriptedStation(hub: server.hub, workflow: Self.workflow, outcomes: outcomes)
            let loop = Task { await station.run() }
            let browser = try await WebDriver.start(width: window.width, height: window.height)
            do {
                try await browser.navigate(to: server.base + "/")
                try await body(browser, station, server)
                await browser.quit()
            } catch {
                try? await browser.saveScreenshot(to: Self.artifacts.appendingPathComponent("failure.png").path)
                await browser.quit()
                loop.cancel()
                throw error
            }
            loop.cancel()
        }
    }

    /// From the consent screen to the data page's capture: agree (a tap on the active item,
    /// then I agree), Austria, passport.
    func choosePassport(_ browser: WebDriver, _ station: ScriptedStation) async throws {
        try await browser.click("button[data-tick='privacy']")
        try await browser.click("button[data-action='accept']")
        try await browser.click("button[data-action='country-AUT']")
        try await browser.click("button[data-action='document-passport-plastic']")
        #expect(await station.requested.next() == .capture(.docFinder))
    }

    /// From the idle screen to the reader: start, the passport's data page taken and
    /// confirmed, the chip read asked for.
    func startAndReachTheReader(_ browser: WebDriver, _ station: ScriptedStation) async throws {
        try await browser.click("button[data-action='startJourney']")
        try await choosePassport(browser, station)
        await station.capture()
        try await browser.click("button[data-action='confirm']")
        try await screen(browser, "nfc")
        #expect(await station.requested.next() == .chipRead)
    }

    /// Closes the help with Continue and waits until the station has the `retryScan`: until
    /// then detection is paused, and a capture the test makes meanwhile is dropped as a frame in
    /// flight (the browser closes its modal at once; the command reaches the station later).
    func continueAfterHelp(_ browser: WebDriver, _ station: ScriptedStation) async throws {
        let before = await station.commands.filter { $0 == .flow(.retryScan) }.count
        try await browser.click("#modal button[data-action='continue']")
        try await browser.waitUntil("the station resumes detection") {
            await station.commands.filter { $0 == .flow(.retryScan) }.count > before
        }
        try await browser.waitUntil("the help closes") { try await browser.element("#modal[data-kind]") == nil }
    }

    func shoot(_ browser: WebDriver, _ name: String) async throws {
        try await browser.saveScreenshot(to: Self.artifacts.appendingPathComponent("\(name).png").path)
    }

    func screen(_ browser: WebDriver, _ name: String) async throws {
        try await browser.waitFor("main[data-screen='\(name)']")
    }

    func text(_ browser: WebDriver, _ css: String) async throws -> String {
        try await browser.text(try await browser.waitFor(css))
    }

    @Test func aWholeJourneyIsClickedThrough() async throws {
        // The first capture of the data page is rejected for glare, the retake is accepted.
        let outcomes: [Controller.PartOutcome] = [.rejected([.front: .glare])]
        try await withKiosk(outcomes: outcomes) { browser, station, _ in
            try await screen(browser, "idle")
            #expect(try await text(browser, "main h1") == "Welcome")
            try await shoot(browser, "01-idle")

            try await browser.click("button[data-action='startJourney']")
            try await screen(browser, "consent")
            #expect(try await text(browser, ".consent-item.active .consent-text").contains("picture of my face"))
            try await browser.click("button[data-tick='privacy']")
            try await browser.waitFor("button[data-tick='privacy'][aria-checked='true']")
            try await shoot(browser, "02-consent")
            try await browser.click("button[data-action='accept']")

            try await screen(browser, "selectCountry")
            try await shoot(browser, "03-country")
            try await browser.click("button[data-action='country-DEU']")
            try await screen(browser, "selectDocument")
            #expect(try await text(browser, "button[data-action='document-identityCard-plastic']").contains("Identity card"))
            try await shoot(browser, "04-document")
            try await browser.click("button[data-action='back']")
            try await browser.click("button[data-action='country-AUT']")
            // Austria has one document: the choice is still shown, and leads to the capture.
            try await browser.click("button[data-action='document-passport-plastic']")

            try await browser.waitFor("main[data-screen='scan'] section[data-part='front'][data-mode='docFinder']")
            #expect(await station.requested.next() == .capture(.docFinder))
            await station.update(.extractionState(.moveCloser))
            try await browser.waitFor("#prompt", containing: "closer")
            await station.update(.flash(.on))
            await station.update(.extractionState(.tilt(current: 12, target: 0)))
            try await browser.waitFor("#tilt")
            #expect(try await text(browser, "#tilt p").contains("12°"))
            #expect(try await browser.isDisplayed(try #require(try await browser.element("#flash"))))
            try await browser.waitUntil("the preview shows a frame") {
                try await browser.execute("const i = document.getElementById('preview'); return i && i.naturalWidth > 0 ? 'yes' : 'no'") == "yes"
            }
            try await shoot(browser, "05-scan-tilt")

            await station.capture()
            try await screen(browser, "reject")
            #expect(try await text(browser, ".reasons li[data-code='2006']").contains("reflection"))
            try await shoot(browser, "06-reject")
            try await browser.click("button[data-action='retake']")

            try await browser.waitFor("main[data-screen='scan'] section[data-part='front']")
            #expect(await station.requested.next() == .capture(.docFinder))
            await station.update(.extractionState(.holdStill))
            try await browser.waitFor("#prompt", containing: "Hold still")
            await station.capture()
            try await screen(browser, "confirmation")
            try await shoot(browser, "07-confirm")
            try await browser.click("button[data-action='confirm']")

            // The data page leads to the chip.
            try await screen(browser, "nfc")
            #expect(await station.requested.next() == .chipRead)
            try await shoot(browser, "08-nfc-place")
            await station.readChip(progress: [20, 60], finish: false)
            try await browser.waitFor("#nfc-percent", containing: "60")
            #expect(try await text(browser, "#nfc-text").contains("Keep the document on the reader"))
            try await shoot(browser, "09-nfc-progress")
            await station.readChip(progress: [100])

            // Then the face, in its own credential.
            try await browser.waitFor("main[data-screen='scan'] section[data-part='face']")
            #expect(await station.requested.next() == .capture(.faceLiveness))
            await station.update(.extractionState(.tiltFace(.up)))
            try await browser.waitFor("#prompt", containing: "head up")
            try await shoot(browser, "10-face")

            // "Are you still there?"
            await station.inactivityTimerFired()
            try await browser.waitFor("#modal[data-kind='inactivity']")
            try await shoot(browser, "11-inactivity")
            try await browser.click("button[data-action='userIsPresent']")
            try await browser.waitUntil("the warning closes") { try await browser.element("#modal[data-kind]") == nil }

            await station.capture()
            try await screen(browser, "finalizing")
            #expect(await station.requested.next() == .finalize)
            try await shoot(browser, "12-finalizing")
            await station.finalize()
            try await screen(browser, "result")
            #expect(try await text(browser, "main h1") == "Thank you, all done")
            try await shoot(browser, "13-result")

            let commands = await station.commands
            #expect(commands.contains(.flow(.userConsented(itemID: "privacy", decision: true))))
            #expect(commands.contains(.flow(.setConfiguration(country: "AUT", document: Document(.passport)))))
            #expect(commands.contains(.flow(.userIsPresent)))
            #expect(commands.last == .flow(.finish))
            // The UI's command after the data page met the chip add-on: refused, nothing changed.
            #expect(await station.logicalErrors.allSatisfy { [.scanPartNotCompleted, .multipleScanParts].contains($0) })

            await station.returnToIdle()
            try await screen(browser, "idle")
        }
    }

    /// The MRZ was not read: the person types the document number and dates on the on-screen
    /// keys; the chip refuses them, and the card access number typed then opens it.
    @Test func theChipKeyIsTypedWhenTheMRZWasNotRead() async throws {
        try await withKiosk { browser, station, _ in
            try await browser.click("button[data-action='startJourney']")
            try await choosePassport(browser, station)
            await station.capture(mrzRead: false)
            try await browser.click("button[data-action='confirm']")

            try await browser.waitFor("main[data-screen='chipKey'] p[data-reason='notRead']")
            // A passport: the document number and dates first.
            try await browser.waitFor("button[data-kind='mrz'][aria-selected='true']")
            let read = "button[data-action='enterChipKey']"
            #expect(try await browser.execute("return document.querySelector(\"\(read)\").disabled ? 'off' : 'on'") == "off")
            func type(_ text: String) async throws {
                for character in text { try await browser.click("button.key[data-key='\(character)']") }
            }
            try await type("L898902C3")
            try await browser.click("button[data-field='birth']")
            try await type("12081974")
            #expect(try await text(browser, "button[data-field='birth'] .value") == "12.08.1974")
            // A full date moves on to the next field by itself.
            try await type("1504201")
            try await browser.click("button.key[data-key='back']")
            try await type("12")
            #expect(try await text(browser, "button[data-field='expiry'] .value") == "15.04.2012")
            try await shoot(browser, "14-chip-key")
            try await browser.click(read)
            #expect(await station.requested.next() == .chipRead)
            #expect(await station.commands.contains(.flow(.enterChipKey(.mrz(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415")))))
            try await screen(browser, "nfc")

            await station.chipRefusesKey()
            try await browser.waitFor("main[data-screen='chipKey'] p[data-reason='refused']")
            // What was typed is gone from the page.
            #expect(try await browser.execute("return document.body.innerText.includes('L898902C3') ? 'kept' : 'gone'") == "gone")
            try await browser.click("button[data-kind='can']")
            try await type("123456")
            try await browser.click(read)
            #expect(await station.requested.next() == .chipRead)
            #expect(await station.commands.contains(.flow(.enterChipKey(.can("123456")))))
            await station.readChip(progress: [100])
            try await browser.waitFor("main[data-screen='scan'] section[data-part='face']")
        }
    }

    @Test func theLanguageSwitchesAndAFailureShowsTheCodeForStaff() async throws {
        try await withKiosk { browser, station, _ in
            try await screen(browser, "idle")
            try await browser.click("button[data-language='de']")
            try await browser.waitFor("main h1", containing: "Willkommen")
            try await shoot(browser, "20-idle-de")

            await station.cardPlaced()
            try await screen(browser, "consent")
            // A new journey starts in the default language.
            #expect(try await text(browser, "button[data-action='accept']") == "I agree")
            try await browser.click("button[data-language='de']")
            try await browser.waitFor("button[data-action='accept']", containing: "Ich stimme zu")
            try await browser.click("button[data-action='cancel']")
            try await browser.waitFor("#modal[data-kind='cancel']")
            try await shoot(browser, "21-cancel-de")
            try await browser.click("button[data-action='confirmCancel']")
            try await screen(browser, "result")
            #expect(try await text(browser, "main h1").contains("abgebrochen"))
            #expect(await station.commands.last == .flow(.cancel))

            // A journey that fails at the backend: the person sees the full code for staff.
            await station.returnToIdle()
            try await screen(browser, "idle")
            await station.cardPlaced()
            try await choosePassport(browser, station)
            await station.capture()
            try await browser.click("button[data-action='confirm']")
            #expect(await station.requested.next() == .chipRead)
            await station.readChip(progress: [100])
            #expect(await station.requested.next() == .capture(.faceLiveness))
            await station.capture()
            #expect(await station.requested.next() == .finalize)
            await station.finalize(failing: FlowError(.C, detail: "401301"))
            try await screen(browser, "result")
            #expect(try await text(browser, "#error-code") == "C401301")
            try await shoot(browser, "22-ask-staff")
        }
    }

    @Test func repeatedFailuresOfferTheFallbackWithAShutter() async throws {
        // Two failures, then the third: the controller offers the manual fallback (3 attempts).
        let outcomes: [Controller.PartOutcome] = [
            .retry(Retry.Reason(code: 12, message: "Document too far away")), .rejected([.front: .blurry]),
            .rejected([.front: .notReadable]),
        ]
        try await withKiosk(outcomes: outcomes) { browser, station, _ in
            try await browser.click("button[data-action='startJourney']")
            try await choosePassport(browser, station)
            await station.capture()
            try await screen(browser, "retry")
            #expect(try await text(browser, ".reason[data-code='12']") == "Document too far away")
            try await shoot(browser, "40-retry")
            try await browser.click("button[data-action='retake']")
            #expect(await station.requested.next() == .capture(.docFinder))
            await station.capture()
            try await browser.waitFor(".reasons li[data-code='2001']", containing: "blurry")
            #expect(try await browser.element("[data-kind='fallback']") == nil)
            try await browser.click("button[data-action='retake']")
            #expect(await station.requested.next() == .capture(.docFinder))
            await station.capture()
            try await browser.waitFor(".reasons li[data-code='200']")
            try await browser.waitFor("[data-kind='fallback']")
            try await shoot(browser, "41-fallback-offer")
            try await browser.click("button[data-action='switchToFallback']")

            try await browser.waitFor("main[data-screen='scan'] section[data-mode='manual']")
            try await browser.waitFor("#notices .notice", containing: "take the photo yourself")
            try await shoot(browser, "42-manual")
            try await browser.click("button[data-action='takeImage']")
            #expect(await station.requested.next() == .capture(.manual))
            await station.capture()
            try await screen(browser, "confirmation")
            #expect(await station.commands.contains(.flow(.switchToFallback)))
            #expect(await station.commands.contains(.flow(.takeImage)))
        }
    }

    @Test func aReloadedPageRestoresTheScreenFromTheReplay() async throws {
        try await withKiosk { browser, station, server in
            try await browser.click("button[data-action='startJourney']")
            try await choosePassport(browser, station)
            await station.update(.extractionState(.holdStraight))
            try await browser.waitFor("#prompt", containing: "straight")
            let before = await station.commands.count

            try await browser.navigate(to: server.base + "/")
            try await browser.waitFor("main[data-screen='scan'] section[data-part='front'][data-mode='docFinder']")
            try await browser.waitFor("#prompt", containing: "straight")
            await station.capture()
            try await browser.click("button[data-action='confirm']")
            try await screen(browser, "nfc")
            // The replay made the page send nothing of its own: the person's confirm came first.
            #expect(await station.commands.dropFirst(before).first == .flow(.confirm))
        }
    }

    @Test func aNetworkErrorIsRetriedByThePerson() async throws {
        try await withKiosk { browser, station, _ in
            try await browser.click("button[data-action='startJourney']")
            try await choosePassport(browser, station)
            await station.capture()
            try await browser.click("button[data-action='confirm']")
            #expect(await station.requested.next() == .chipRead)
            await station.readChip(progress: [50, 100])
            #expect(await station.requested.next() == .capture(.faceLiveness))
            await station.capture()
            #expect(await station.requested.next() == .finalize)
            await station.finalize(failing: FlowError(.A, detail: "100503"))
            try await screen(browser, "error")
            #expect(try await text(browser, "#error-code").contains("A100503"))
            try await shoot(browser, "50-network-error")
            try await browser.click("button[data-action='retryAfterError']")
            #expect(await station.requested.next() == .finalize)
            await station.finalize()
            try await screen(browser, "result")
            #expect(await station.commands.contains(.flow(.retryAfterError)))
        }
    }

    @Test func outOfServiceListsTheMissingDevices() async throws {
        var configuration = DisplayServer.Configuration(port: 0)
        configuration.theme.appearance = .dark
        try await withKiosk(configuration: configuration) { browser, _, server in
            try await screen(browser, "idle")
            await server.hub.publish(
                .station(.outOfService(devices: [
                    DeviceStatus(.camera, available: false, detail: "no camera named usb-046d_HD_Pro_Webcam_C920"),
                    DeviceStatus(.reader, available: true), DeviceStatus(.flash, available: true),
                ]))
            )
            try await screen(browser, "outOfService")
            #expect(try await text(browser, "li[data-device='camera']").contains("Camera"))
            #expect(try await browser.element("li[data-device='reader']") == nil)
            // Dark mode from the theme.
            #expect(try await browser.execute("return getComputedStyle(document.body).backgroundColor") == "rgb(11, 16, 32)")
            try await shoot(browser, "30-out-of-service-dark")
        }
    }
}

/// A preview at display size: a grey desk with a document-coloured card, as JPEG, a few frames.
struct TestPatternPreview: PreviewSource {
    func previewFrames() -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            let task = Task {
                let width = 640
                let height = 360
                for index in 0..<1000 {
                    var pixels = [UInt8](repeating: 0, count: width * height * 3)
                    for y in 0..<height {
                        for x in 0..<width {
                            let card = x > 150 + index % 20 && x < 490 + index % 20 && y > 60 && y < 300
                            let offset = (y * width + x) * 3
                            pixels[offset] = card ? 214 : 92
                            pixels[offset + 1] = card ? 196 : 96
                            pixels[offset + 2] = card ? 160 : 104
                        }
                    }
                    guard let jpeg = try? JPEGCodec().encode(RGBImage(width: width, height: height, pixels: pixels), quality: 70) else { break }
                    continuation.yield(jpeg)
                    guard (try? await Task.sleep(for: .milliseconds(200))) != nil else { break }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
