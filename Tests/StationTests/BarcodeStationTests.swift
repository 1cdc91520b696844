import Backend
import Capture
import Display
import Foundation
import KioskTestKit
import ScanFlow
@testable import Station
import Testing

/// The barcode journey (`us-dl-barcode-face`, issue #14): a North American card's front,
/// its back's PDF417 read as extraction data, then the face; the seeds' Y and Z at the back.
@Suite struct BarcodeStationTests {
    /// The AAMVA standard's example (Annex D) with an expiry in 2034 (the same length: its
    /// header's offsets still hold).
    static let record = Array(
        ("@\n\u{1E}\rANSI 636000100002DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\nDDGN\nDCUJR\n"
            + "DCAD\nDCBK\nDCDPH\nDBD06062019\nDBB06061986\nDBA12102034\nDBC1\nDAU068 in\nDAYBRO\nDAG2300 WEST BROAD STREET\n"
            + "DAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\nDCK123456789\nDDAF\nDDB06062018\n"
            + "DDC06062020\nDDD1\rZVZVA01\r").utf8)

    @Test func thePresetParsesAndAsksForNorthAmericanCardsInBarcodeMode() throws {
        let config = try Configuration.parse("journey:\n  workflow: us-dl-barcode-face\nvision:\n  document:\n    barcode-timeout: 7\n")
        #expect(config.journey.workflow == .usDLBarcodeFace)
        var settings = CameraCapture.Settings(name: "")
        config.vision.document.apply(to: &settings)
        #expect(settings.barcodeTimeout == .seconds(7))
        #expect(throws: ConfigurationError.self) { try Configuration.parse("vision:\n  document:\n    barcode-timeout: 1\n") }
        let profile = WorkflowProfile(config)
        let request = profile.accountRequest(reference: "kiosk-1")
        let id = try #require(request.workflowDefinition.credentials?.first)
        #expect(id.category == .ID)
        #expect(id.country?.values == ["USA", "CAN"])
        #expect(id.type?.values == [.DRIVING_LICENSE, .ID_CARD])
        #expect(request.workflowDefinition.credentials?.last?.category == .FACEMAP)
        let workflow = profile.workflow(for: StationMachineTests.response, token: SessionToken("token-1"))
        let info = try #require(workflow.credentials.first { $0.category == .id })
        #expect(info.documentMode == .barcode)
        #expect(!info.chipReading)
        #expect(info.countries.keys.sorted() == ["CAN", "USA"])
    }

    @Test func theBarcodeTravelsAsExtractionDataAndFillsTheIDResult() async throws {
        var options = StationHarness.Options()
        options.preset = .usDLBarcodeFace
        options.barcode = Self.record
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            #expect(result.isSuccess, "\(result)")
            let id = try #require(result.credentials.first { $0.category == .id })
            #expect(id.parts == [.multipart: .barcode])
            #expect(!id.chipRead)
            #expect(station.chip.reads.withLock { $0 } == 0)
            try await station.display.waitForScreen("decision") { if case .decision(_, .some) = $0 { true } else { false } }
            guard case .decision(let reference, _) = station.display.screens.last(where: { if case .decision(_, .some) = $0 { true } else { false } })
            else { throw TestFailure("no decision") }
            let parts = try await station.store.parts(executionId: reference)
            #expect(Set(parts.map(\.classifier)) == [.front, .back, .barcode, .face])
            let barcode = try #require(parts.first { $0.classifier == .barcode })
            #expect(barcode.category == .ID)
            #expect(try JSONDecoder().decode(BarcodeData.self, from: barcode.body) == BarcodeData(format: "PDF417", bytes: Self.record))
            let row = try #require(try await station.store.execution(clientId: station.clientId, executionId: reference))
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: try #require(row.result))
            #expect(details.capabilities.extraction.map(\.id) == ["extraction-BARCODE"])
            #expect(details.capabilities.extraction.map(\.decision) == [.PASSED])
            #expect(details.capabilities.dataChecks.first { $0.id == "expiry" }?.decision == .PASSED)
            let idResult = try #require(details.idResult)
            #expect(idResult.extractionMethod == "barcode")
            #expect(idResult.idType == .DRIVING_LICENSE && idResult.issuingCountry == "USA")
            #expect(idResult.lastName == "SAMPLE" && idResult.firstName == "MICHAEL")
            #expect(idResult.documentNumber == "T64235789")
            #expect(idResult.dateOfBirth == "1986-06-06" && idResult.expiryDate == "2034-12-10" && idResult.issuingDate == "2019-06-06")
            #expect(idResult.gender == "M")
            #expect(idResult.address == "2300 WEST BROAD STREET" && idResult.city == "RICHMOND")
            #expect(idResult.subdivision == "VA" && idResult.postalCode == "23269" && idResult.country == "USA")
        }
    }

    /// Y at the back (the barcode has no address) sends the person to the front again; Z (the
    /// front still shown) to the back; the autopilot retries each, and the journey ends.
    @Test func yAndZAtTheBackAreShownAndRetried() async throws {
        var options = StationHarness.Options()
        options.preset = .usDLBarcodeFace
        options.barcode = Self.record
        options.backHints = [FlowError(.Y), FlowError(.Z)]
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let errors = station.display.messages.compactMap { if case .error(let e) = $0 { e.code } else { nil } }
            #expect(errors == ["Y000000", "Z000000"])
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            #expect(result.isSuccess, "\(result)")
            // The card's captures: the first (Y), the whole card again (Z at its back), the back again; then the face.
            #expect(station.camera.captures.withLock { $0 } == 4)
            let nextParts = station.display.messages.filter { if case .step(.nextPart(.back)) = $0 { true } else { false } }
            #expect(nextParts.count == 3)
        }
    }

    @Test func theMachineTurnsACapturesHintIntoTheSeedsError() {
        var machine = StationMachineTests.scanningFront()
        _ = machine.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(3))
        _ = machine.captureEvent(generation: 1, .started, now: .seconds(3))
        let actions = machine.captureEvent(generation: 1, .scanFailed(FlowError(.Z)), now: .seconds(4))
        #expect(actions.contains(.show(.error(FlowError(.Z)))))
        #expect(actions.contains(.stopCapture))
        #expect(actions.contains { if case .log(let line) = $0 { line.metadata["code"] == "Z000000" } else { false } })
        // A late report of an ended capture changes nothing.
        #expect(machine.captureEvent(generation: 0, .scanFailed(FlowError(.Y)), now: .seconds(5)).isEmpty)
    }

    @Test func theBarcodeEvidenceIsUploadedAsBarcodeData() throws {
        let upload = try #require(CaptureEvidence.barcode(.pdf417, bytes: Self.record).upload)
        #expect(upload.classifier == .barcode)
        let data = try JSONDecoder().decode(BarcodeData.self, from: upload.body)
        #expect(data.format == "PDF417" && [UInt8](data.data) == Self.record)
        #expect(!"\(data)".contains("SAMPLE"))
    }
}
