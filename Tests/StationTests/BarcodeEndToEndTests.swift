import AsyncHTTPClient
import Backend
import Foundation
import KioskTestKit
import Testing

/// The barcode journey as `make demo` runs the station (`idkiosk serve`, the reference
/// backend, the file camera), a person in headless Chromium: the generated recording shows a
/// North American card's front, then its back with the PDF417; the station reads the barcode
/// itself and the backend's IDResult holds the record's fields (the recording's ground truth).
@Suite(
    .serialized,
    .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)),
    .enabled(if: WebDriver.isAvailable, Comment(rawValue: WebDriver.skipReason)),
    .enabled(if: DemoStack.canStart, Comment(rawValue: "needs \(DemoStack.missing)")),
    .enabled(if: BarcodeDataSet() != nil, Comment(rawValue: "needs \(BarcodeDataSet.missing)")))
struct BarcodeEndToEndIntegrationTests {
    struct RecordedCard: Decodable {
        struct Barcode: Decodable { var fields: BarcodeDataSet.Fields }
        var side: String
        var barcode: Barcode?
    }

    @Test func aCardsBarcodeIsReadAtTheStationAndItsFieldsReachTheResult() async throws {
        let data = try #require(BarcodeDataSet())
        let truth = try JSONDecoder().decode(
            [RecordedCard?].self, from: Data(contentsOf: URL(fileURLWithPath: data.root + "/sequences/us-dl-front-back.json")))
        let recorded = truth.compactMap { card in card?.barcode?.fields }.first
        let fields = try #require(recorded)
        var options = DemoStack.Options()
        options.workflow = "us-dl-barcode-face"
        options.countries = "[USA]"
        options.documentRecording = data.frontBackRecording
        options.resultSeconds = 120
        let stack = try await DemoStack(options)
        let browser = try await WebDriver.start(width: 1280, height: 800)
        let ui = DefaultUIEndToEndIntegrationTests()
        do {
            try await browser.navigate(to: stack.displayURL)
            try await ui.screen(browser, "idle")
            try await browser.click("button[data-action='startJourney']")
            try await ui.screen(browser, "consent")
            try await browser.click("button[data-action='accept']")
            // One country, two kinds of card: the person picks the driving licence.
            try await ui.screen(browser, "selectDocument")
            try await ui.shoot(browser, "barcode-01-select-document")
            try await browser.click("button[data-action='document-drivingLicense-plastic']")
            // The card: front, then the back with its barcode, both taken by themselves.
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='multipart']", limit: .seconds(60))
            try await ui.shoot(browser, "barcode-02-scan")
            try await ui.screen(browser, "confirmation", limit: .seconds(90))
            try await ui.shoot(browser, "barcode-03-confirmation")
            try await browser.click("button[data-action='confirm']")
            // No chip on a barcode journey: the face comes next, then the result.
            _ = try await browser.waitFor("main[data-screen='scan'] section[data-part='face']", limit: .seconds(60))
            try await ui.screen(browser, "result", limit: .seconds(90))
            let decision = try await browser.waitFor("#decision:not([data-decision='pending'])", limit: .seconds(60))
            let shown = try await browser.attribute("data-decision", of: decision)
            try await ui.shoot(browser, "barcode-04-result")

            let details = try await stack.backendDetails()
            #expect(shown == details.decision.type.rawValue)
            #expect(details.capabilities.extraction.map(\.id) == ["extraction-BARCODE"], "\(details.capabilities.extraction)")
            #expect(details.capabilities.extraction.map(\.decision) == [.PASSED])
            #expect(!details.capabilities.chipAuthentication.contains { $0.id == "passiveAuthentication" })
            let id = try #require(details.idResult)
            #expect(id.extractionMethod == "barcode")
            #expect(id.idType == (fields.kind == "DL" ? .DRIVING_LICENSE : .ID_CARD))
            #expect(id.issuingCountry == fields.country && id.country == fields.country)
            #expect(id.documentNumber == fields.documentNumber)
            #expect(id.lastName == fields.familyName && id.firstName == fields.firstName)
            #expect(id.dateOfBirth == fields.dateOfBirth && id.expiryDate == fields.expiryDate && id.issuingDate == fields.issuingDate)
            #expect(id.gender == fields.sex)
            #expect(id.address == fields.street && id.city == fields.city)
            #expect(id.subdivision == fields.jurisdiction && id.postalCode == fields.postalCode)
            // The station logged no field of the record.
            for value in [fields.documentNumber, fields.familyName, fields.street ?? fields.documentNumber] {
                #expect(!stack.serve.output.contains(value))
            }
        } catch {
            try? await ui.shoot(browser, "barcode-failure")
            await browser.quit()
            await stack.stop()
            throw error
        }
        await browser.quit()
        await stack.stop()
    }
}
