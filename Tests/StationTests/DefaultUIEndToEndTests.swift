import AsyncHTTPClient
import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
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

    /// Runs `body` with the demo stack of `options` and a headless Chromium on its display;
    /// both stop afterwards, and a failure leaves a screenshot named `failure`.
    func withStation(_ options: DemoStack.Options, failure: String, _ body: (DemoStack, WebDriver) async throws -> Void) async throws {
        let stack = try await DemoStack(options)
        let browser: WebDriver
        do { browser = try await WebDriver.start(width: 1280, height: 800) } catch {
            await stack.stop()
            throw error
        }
        do {
            try await browser.navigate(to: stack.displayURL)
            try await body(stack, browser)
        } catch {
            try? await shoot(browser, failure)
            await browser.quit()
            await stack.stop()
            throw error
        }
        await browser.quit()
        await stack.stop()
    }

    /// From the idle screen: the person touches it and accepts the consent.
    func startAndConsent(_ browser: WebDriver) async throws {
        try await screen(browser, "idle")
        try await browser.click("button[data-action='startJourney']")
        try await screen(browser, "consent")
        try await browser.click("button[data-action='accept']")
    }

    /// What `watchScript` gathered on the scan screen.
    struct Watched: Decodable {
        var states: [String]
        /// The most and the fewest pixels of the outline's colours in one preview frame.
        var outline: Int
        var fewest: Int
    }

    /// Every 100 ms: the prompt's state when it changes, and the pixels of the preview in the
    /// outline's colours (PreviewOverlay: green 40,200,90; amber 245,170,30; within JPEG's error).
    static let watchScript = """
        window.idkioskSeen = { states: [], outline: 0, fewest: 1e9, last: 0 };
        const canvas = document.createElement('canvas');
        const near = (d, k, r, g, b) => Math.abs(d[k] - r) < 45 && Math.abs(d[k + 1] - g) < 45 && Math.abs(d[k + 2] - b) < 45;
        window.idkioskWatch = setInterval(() => {
          const seen = window.idkioskSeen;
          const prompt = document.getElementById('prompt');
          const state = prompt ? prompt.dataset.state : '';
          if (state && seen.states[seen.states.length - 1] !== state) seen.states.push(state);
          const image = document.getElementById('preview');
          if (!image || !image.naturalWidth) return;
          canvas.width = image.naturalWidth;
          canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0);
          const d = context.getImageData(0, 0, canvas.width, canvas.height).data;
          let n = 0;
          for (let k = 0; k < d.length; k += 4) if (near(d, k, 40, 200, 90) || near(d, k, 245, 170, 30)) n++;
          seen.fewest = Math.min(seen.fewest, n);
          seen.last = n;
          seen.outline = Math.max(seen.outline, n);
        }, 50);
        return 'watching';
        """

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
            // What the person sees change until it is taken: the prompts, and the outline the
            // station draws on the preview (green or amber pixels, sampled from the image).
            _ = try await browser.execute(Self.watchScript)
            // For the screenshot only: a preview frame with the outline on it, if the browser
            // sees one before the capture.
            try? await browser.waitUntil("the outline on the preview", limit: .seconds(10)) {
                try await browser.execute("return window.idkioskSeen.last >= 1000 ? 'yes' : 'no'") == "yes"
            }
            try await shoot(browser, "03-scan-front")
            try await screen(browser, "confirmation")
            let seen = try await browser.execute("clearInterval(window.idkioskWatch); return JSON.stringify(window.idkioskSeen)") ?? "{}"
            let watched = try JSONDecoder().decode(Watched.self, from: Data(seen.utf8))
            print("scan screen: prompts \(watched.states), outline pixels at most \(watched.outline) (\(watched.fewest) at the fewest)")
            // The page slides in and lies still: the guidance changed on its way to the capture.
            #expect(Set(watched.states).count >= 2, "\(watched.states)")
            #expect(watched.states.last == "holdStill", "\(watched.states)")
            // The outline: thousands of pixels of its colours at once (a 3-pixel line round the
            // page), none while the platen is empty (so the scene itself has not those colours).
            #expect(watched.outline >= 1000, "outline pixels \(watched.outline)")
            #expect(watched.fewest < 100, "outline-coloured pixels with no outline: \(watched.fewest)")
            try await shoot(browser, "04-confirmation")
            try await browser.click("button[data-action='confirm']")

            // The chip: the virtual passport on the reader, read with the MRZ's key.
            try await screen(browser, "nfc")
            try await shoot(browser, "05-nfc")

            // The face: the preview shows the simulated person (not the document's platen), the
            // guidance changes as the light challenge and the head turn run; then the result.
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='face']", limit: .seconds(60))
            _ = try await browser.execute(Self.watchScript)
            try? await browser.waitUntil("the turn asked", limit: .seconds(20)) {
                try await browser.execute("return window.idkioskSeen.states.includes('tiltFace') ? 'yes' : 'no'") == "yes"
            }
            try await shoot(browser, "06-scan-face")
            try await screen(browser, "result")
            let faceSeen = try await browser.execute("clearInterval(window.idkioskWatch); return JSON.stringify(window.idkioskSeen)") ?? "{}"
            let faceStates = try JSONDecoder().decode(Watched.self, from: Data(faceSeen.utf8)).states
            print("face screen: prompts \(faceStates)")
            #expect(faceStates.contains("tiltFace"), "\(faceStates)")
            let decision = try await browser.waitFor("#decision:not([data-decision='pending'])", limit: .seconds(60))
            let shown = try await browser.attribute("data-decision", of: decision)
            try await shoot(browser, "07-result")

            // The backend's own record: decision, parts received, chip verified at the backend.
            let details = try await stack.backendDetails()
            #expect(details.workflow.status == .PROCESSED)
            // The display shows the backend's decision. The backend ran its own face checks on
            // the parts (the simulated person answered the LED and turned; the chip holds her
            // portrait): liveness and similarity PASSED, as every other check, so the journey PASSED.
            #expect(shown == details.decision.type.rawValue)
            #expect(details.capabilities.liveness.map(\.decision) == [.PASSED], "\(details.capabilities.liveness)")
            #expect(details.capabilities.similarity.map(\.decision) == [.PASSED], "\(details.capabilities.similarity)")
            #expect(details.decision.type == .PASSED, "\(details.capabilities.all.filter { $0.decision != .PASSED })")
            #expect(details.faceResult?.passed == true)
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

    /// The ID card journey (`id-card-chip-face`): the card's front is taken, the screen asks
    /// for its back, the back is taken; the chip opens with the key the camera read from the
    /// back's TD1 zone (the front has none); the face; the backend's decision.
    @Test func aPersonShowsAnIdentityCardFrontThenBackAndItsChipOpensWithTheBacksKey() async throws {
        var options = DemoStack.Options()
        options.workflow = "id-card-chip-face"
        options.document = "sequences/demo-idcard"
        options.resultSeconds = 120
        try await withStation(options, failure: "idcard-failure") { stack, browser in
            try await startAndConsent(browser)
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='multipart']", limit: .seconds(60))
            try await shoot(browser, "idcard-01-front")
            // The front is taken: the person is asked for the back, on the same scan screen.
            _ = try await browser.waitFor("main[data-screen='scan'] #prompt[data-side='back']", limit: .seconds(60))
            try await shoot(browser, "idcard-02-turn")
            try await screen(browser, "confirmation", limit: .seconds(60))
            try await browser.click("button[data-action='confirm']")
            try await screen(browser, "nfc")
            try await shoot(browser, "idcard-03-nfc")
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='face']", limit: .seconds(60))
            try await screen(browser, "result", limit: .seconds(90))
            let decision = try await browser.waitFor("#decision:not([data-decision='pending'])", limit: .seconds(60))
            let shown = try await browser.attribute("data-decision", of: decision)
            let referenceText = try await browser.text(try await browser.waitFor("#reference"))
            try await shoot(browser, "idcard-04-result")

            // The backend's record: both sides, the chip's TD1 zone, verified, and the face.
            let execution = try #require(referenceText.split(separator: " ").last.map(String.init))
            let store = try SQLiteReferenceStore(path: stack.database)
            let parts = try await store.parts(executionId: execution)
            #expect(Set(parts.map(\.classifier)).isSuperset(of: [.front, .back, .nfc, .face]), "\(parts.map(\.classifier))")
            let record = try #require(try await store.execution(clientId: stack.clientID, executionId: execution)?.result)
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: record)
            #expect(details.idResult?.idType == .ID_CARD)
            #expect(details.idResult?.idSubType == "TD1")
            #expect(details.idResult?.extractionMethod == "nfc")
            #expect(details.capabilities.dataChecks.first { $0.id == "mrzMatchesChip" }?.decision == .PASSED, "\(details.capabilities.dataChecks)")
            #expect(details.capabilities.chipAuthentication.first { $0.id == "passiveAuthentication" }?.decision == .PASSED)
            #expect(details.decision.type == .PASSED, "\(details.capabilities.all.filter { $0.decision != .PASSED })")
            #expect(shown == details.decision.type.rawValue)
        }
    }

    /// Fastfill (seed 002, `fastfill`): the data page and the chip, no face; the result screen
    /// says the details were read and shows the reference, and no decision ever comes: the
    /// backend extracted the data and decided nothing.
    @Test func aPersonHasTheirPassportReadWithoutAFaceAndNothingIsDecided() async throws {
        var options = DemoStack.Options()
        options.workflow = "fastfill"
        options.resultSeconds = 60
        try await withStation(options, failure: "fastfill-failure") { stack, browser in
            try await startAndConsent(browser)
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='front']", limit: .seconds(60))
            try await screen(browser, "confirmation", limit: .seconds(60))
            try await browser.click("button[data-action='confirm']")
            try await screen(browser, "nfc")
            try await screen(browser, "result", limit: .seconds(90))
            let box = try await browser.waitFor("#decision[data-decision='extracted']", limit: .seconds(30))
            #expect(try await browser.text(box).contains("Reference"))
            let referenceText = try await browser.text(try await browser.waitFor("#reference"))
            try await shoot(browser, "fastfill-01-result")

            // The backend got the page and the chip, no face, and decided nothing.
            let execution = try #require(referenceText.split(separator: " ").last.map(String.init))
            let store = try SQLiteReferenceStore(path: stack.database)
            var record: Data?
            for _ in 0..<100 where record == nil {
                record = try await store.execution(clientId: stack.clientID, executionId: execution)?.result
                if record == nil { try await Task.sleep(for: .milliseconds(200)) }
            }
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: try #require(record))
            #expect(details.decision.type == .NOT_EXECUTED)
            #expect(details.idResult?.extractionMethod == "nfc")
            #expect(details.capabilities.chipAuthentication.first { $0.id == "passiveAuthentication" }?.decision == .PASSED)
            #expect(details.faceResult == nil)
            let categories = Set(try await store.parts(executionId: execution).map(\.category))
            #expect(categories == [.ID])
            // The screen still says what it said: no decision came.
            #expect(try await browser.attribute("data-decision", of: try await browser.waitFor("#decision")) == "extracted")
        }
    }

    /// A Digital Identity at the station: the person chooses the provider instead of their
    /// passport; the hand-off's QR code on the screen is read off a screenshot by ZBar (a
    /// decoder we did not write); the test, as the phone, opens the address it holds and
    /// shares the identity; the station goes on by itself and the backend records the outcome.
    @Test(.enabled(if: ZBar.isAvailable, Comment(rawValue: ZBar.skipReason)))
    func aPersonScansTheHandoffWithTheirPhoneAndTheStationGoesOn() async throws {
        var options = DemoStack.Options()
        options.workflow = "digital-identity"
        options.resultSeconds = 60
        try await withStation(options, failure: "digital-failure") { stack, browser in
            try await startAndConsent(browser)
            try await screen(browser, "selectDocument")
            try await shoot(browser, "digital-01-select")
            try await browser.click("button[data-action='digital-reference-eid']")

            // The hand-off: a QR code with its steps and alt text, the address as text, a way out.
            try await screen(browser, "handoff")
            try await browser.waitUntil("the QR code drawn", limit: .seconds(15)) {
                try await browser.execute("const i = document.getElementById('handoff-qr'); return i && i.complete && i.naturalWidth > 0 ? 'yes' : 'no'") == "yes"
            }
            let image = try await browser.waitFor("#handoff-qr")
            let alt = try #require(try await browser.attribute("alt", of: image))
            #expect(alt.contains("camera"), "\(alt)")
            _ = try await browser.waitFor("button[data-action='cancelHandoff']")
            let shownURL = try await browser.text(try await browser.waitFor("#handoff-url"))
            try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
            let screenshot = Self.artifacts.appendingPathComponent("digital-02-handoff.png").path
            try await browser.saveScreenshot(to: screenshot)
            let decoded = try ZBar.decodeQR(imageAt: screenshot)
            #expect(decoded == [shownURL], "zbarimg read \(decoded.count) codes")
            let url = try #require(decoded.first)
            #expect(url.hasPrefix("http://127.0.0.1:\(stack.backendPort)/handoff/"))

            // The phone opens the address and shares the identity at the (simulated) provider.
            let opened = try await HandoffPhone.open(url)
            #expect(opened.status == 200)
            #expect(opened.page.contains("data-outcome=\"verify\""))
            try await screen(browser, "thirdParty", limit: .seconds(15))
            try await shoot(browser, "digital-03-waiting")
            #expect(try await HandoffPhone.answer(url, outcome: "verify") == 200)

            // The station goes on to the end by itself, and the backend decides.
            try await screen(browser, "result", limit: .seconds(60))
            let decision = try await browser.waitFor("#decision:not([data-decision='pending'])", limit: .seconds(60))
            let shown = try await browser.attribute("data-decision", of: decision)
            let referenceText = try await browser.text(try await browser.waitFor("#reference"))
            try await shoot(browser, "digital-04-result")
            let execution = try #require(referenceText.split(separator: " ").last.map(String.init))
            let store = try SQLiteReferenceStore(path: stack.database)
            let record = try #require(try await store.execution(clientId: stack.clientID, executionId: execution)?.result)
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: record)
            #expect(details.capabilities.extraction.map(\.id) == ["extraction-DIGITAL_IDENTITY"])
            #expect(details.decision.type == .PASSED)
            #expect(shown == "PASSED")
            // The one-time address is spent: the phone cannot use it again.
            #expect(try await HandoffPhone.open(url).status == 410)
        }
    }

    /// The real station and the reference backend when things go wrong: the backend asks for
    /// a passive notice and an active consent (the station must not take ACTIVE for passive,
    /// nor PASSIVE for active); the display is in dark mode from the configuration; then the
    /// backend goes away under `backend.offline: refuse`: the next person is told so, and
    /// the station goes out of service naming the connection to the verification service.
    @Test func consentDarkModeAndABackendThatGoesAwayUnderRefuse() async throws {
        var options = DemoStack.Options()
        options.backendConsent = "both"
        options.offline = "refuse"
        options.dark = "on"
        options.resultSeconds = 4
        let stack = try await DemoStack(options)
        let browser = try await WebDriver.start(width: 1280, height: 800)
        do {
            try await browser.navigate(to: stack.displayURL)
            try await screen(browser, "idle")
            let background = try await browser.execute("return getComputedStyle(document.body).backgroundColor") ?? ""
            #expect(background == "rgb(11, 16, 32)", "dark mode: \(background)")
            try await shoot(browser, "10-idle-dark")

            try await browser.click("button[data-action='startJourney']")
            try await screen(browser, "consent")
            // The backend's PASSIVE item is a notice, its ACTIVE one a switch of its own.
            _ = try await browser.waitFor("article.consent-item.passive[data-item='privacy'] .notice")
            #expect(try await browser.element("button[data-tick='privacy']") == nil)
            let accept = "button[data-action='accept']"
            #expect(try await browser.execute("return document.querySelector(\"\(accept)\").disabled ? 'off' : 'on'") == "off")
            try await browser.click("button[data-tick='biometrics']")
            _ = try await browser.waitFor("button[data-tick='biometrics'][aria-checked='true']")
            try await shoot(browser, "11-consent-active-passive")
            try await browser.click(accept)
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='front']", limit: .seconds(60))
            try await browser.click("button[data-action='cancel']")
            try await browser.click("button[data-action='confirmCancel']")
            try await screen(browser, "result")
            try await screen(browser, "idle", limit: .seconds(30))

            // The backend goes away.
            _ = await stack.backend.terminate()
            try await browser.click("button[data-action='startJourney']")
            let refused = try await browser.waitFor("main[data-screen='result'] section[data-refused='true']", limit: .seconds(60))
            #expect(try await browser.attribute("data-cause", of: refused) == "offline")
            let code = try await browser.text(try await browser.waitFor("#error-code"))
            #expect(code.hasPrefix("E") || code.hasPrefix("A"), "\(code)")
            try await shoot(browser, "12-refused-offline")
            try await screen(browser, "outOfService", limit: .seconds(30))
            _ = try await browser.waitFor("li[data-device='backend']", containing: "verification service")
            try await shoot(browser, "13-out-of-service-backend")
            // Out of service: a touch starts nothing.
            #expect(try await browser.element("button[data-action='startJourney']") == nil)
            let health = try await stack.get("/health")
            #expect(health.body.contains("out-of-service"), "\(health.body)")
        } catch {
            try? await shoot(browser, "refuse-failure")
            await browser.quit()
            await stack.stop()
            throw error
        }
        await browser.quit()
        await stack.stop()
    }

    /// Seed 004 at the station: a returning person types (or scans) the reference of their
    /// enrollment on the idle screen; the face step runs; the backend compares the face with
    /// the enrollment's and the screen says whether it is them. A reference the backend
    /// cannot use is refused on the screen with L first.
    @Test func aReturningPersonAuthenticatesWithTheReferenceOfTheirEnrollment() async throws {
        var options = DemoStack.Options()
        options.workflow = "authentication"
        options.start = "[reference]"
        options.resultSeconds = 6
        let stack = try await DemoStack(options)
        // The enrollment: Collins' verification, PASSED, whose face is her passport photo. It
        // is put into the backend's database as a finished journey leaves it (the journey
        // itself is the test above).
        let faces = try #require(FaceData())
        let store = try SQLiteReferenceStore(path: stack.database)
        let enrolled = try #require(try await store.initiate(
            clientId: stack.clientID,
            request: AccountRequest(customerInternalReference: "enrolment", workflowDefinition: WorkflowDefinition(key: 10013)),
            existingAccountId: nil, baseURL: "http://127.0.0.1"))
        let enrollment = enrolled.workflowExecution.id
        let faceCredential = try #require(enrolled.workflowExecution.credentials.first { $0.category == .FACEMAP })
        try await store.storePart(
            clientId: stack.clientID, key: "enrolment-face", requestHash: [], executionId: enrollment, credentialId: faceCredential.id,
            classifier: .face, body: try Data(contentsOf: URL(fileURLWithPath: faces.station + "/collins-dg2.jpg")), answer: Data())
        try await store.complete(
            executionId: enrollment,
            result: try JSONEncoder().encode(WorkflowExecutionDetails(
                account: enrolled.account, createdAt: nil, completedAt: nil,
                workflow: .init(id: enrollment, status: .PROCESSED, definitionKey: 10013),
                decision: .init(type: .PASSED, risk: .init(score: 10)), capabilities: .init(), idResult: nil, faceResult: nil)),
            callback: nil)

        let browser = try await WebDriver.start(width: 1280, height: 800)
        do {
            try await browser.navigate(to: stack.displayURL)
            try await screen(browser, "idle")
            _ = try await browser.waitFor("#reference-value")
            // A reference the backend does not know, typed on the keypad.
            for key in ["d", "e", "a", "d", "-", "1", "2"] { try await browser.click("button[data-key='\(key)']") }
            try await browser.click("button[data-key='back']")
            let typed = try await browser.text(try await browser.waitFor("#reference-value"))
            #expect(typed == "dead-1", "\(typed)")
            try await shoot(browser, "auth-01-reference")
            try await browser.click("button[data-action='startJourney']")
            let refused = try await browser.waitFor("main[data-screen='result'] section[data-refused='true'] #error-code", limit: .seconds(30))
            let code = try await browser.text(refused)
            #expect(code.hasPrefix("L"), "\(code)")
            try await shoot(browser, "auth-02-refused")

            // Back to idle; the enrollment's reference comes as a scanner types it: keys, then Enter.
            try await screen(browser, "idle", limit: .seconds(30))
            _ = try await browser.execute("""
                for (const key of arguments[0].split('').concat(['Enter'])) {
                  document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
                }
                return 'typed';
                """, [enrollment])
            try await screen(browser, "consent")
            try await browser.click("button[data-action='accept']")
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='face']", limit: .seconds(60))
            try await screen(browser, "result", limit: .seconds(90))
            let outcome = try await browser.waitFor("main[data-screen='result'] section[data-authentication]", limit: .seconds(30))
            let said = try await browser.attribute("data-authentication", of: outcome)
            let decision = try await browser.waitFor("#decision:not([data-decision='pending'])", limit: .seconds(60))
            let shown = try await browser.attribute("data-decision", of: decision)
            let referenceText = try await browser.text(try await browser.waitFor("#reference"))
            try await shoot(browser, "auth-03-result")

            // The backend compared the live face with the enrollment's and checked liveness.
            let execution = try #require(referenceText.split(separator: " ").last.map(String.init))
            #expect(execution != enrollment)
            let record = try #require(try await store.execution(clientId: stack.clientID, executionId: execution)?.result)
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: record)
            #expect(details.workflow.definitionKey == WorkflowDefinition.authenticationKey)
            #expect(details.capabilities.similarity.map(\.decision) == [.PASSED], "\(details.capabilities.similarity)")
            #expect(details.capabilities.liveness.map(\.decision) == [.PASSED], "\(details.capabilities.liveness)")
            #expect(details.decision.type == .PASSED)
            #expect(said == "SUCCESS")
            #expect(shown == "PASSED")
            #expect(try await store.parts(executionId: execution).contains { $0.classifier == .face })
        } catch {
            try? await shoot(browser, "auth-failure")
            await browser.quit()
            await stack.stop()
            throw error
        }
        await browser.quit()
        await stack.stop()
    }
}
