import Backend
import Display
import Foundation
import KioskTestKit
import ScanFlow
import Station
import Testing
import VirtualPassport

/// The station loop end to end: fake camera and reader, the real reference backend over
/// loopback HTTP, a real outbox file, and the autopilot answering the screens.
@Suite struct StationLoopTests {
    @Test func passportChipAndFaceJourneyEndsWithTheBackendsDecision() async throws {
        try await StationHarness.with { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            #expect(result.isSuccess, "\(result)")
            #expect(result.credentials.first?.chipRead == true)
            // Front, chip, face: what the person saw, in order.
            let steps = station.display.messages.compactMap { if case .step(let s) = $0 { s } else { nil } }
            #expect(steps.contains(.addonScanPart(.nfc)))
            #expect(steps.contains(.confirmationView(.front)))
            #expect(steps.contains(.canFinish(.face)))
            // The answer to an upload comes after the batch it was asked in: processing, then the confirmation.
            let processing = try #require(steps.firstIndex(of: .processing(.front)))
            let confirmation = try #require(steps.firstIndex(of: .confirmationView(.front)))
            #expect(processing < confirmation)
            // The backend received everything through the outbox and decided.
            try await station.display.waitForScreen("decision") {
                if case .decision(_, let decision?) = $0 { decision.isEmpty == false } else { false }
            }
            guard case .decision(let reference, let decision?) = station.display.screens.last(where: {
                if case .decision(_, .some) = $0 { true } else { false }
            }) else { throw TestFailure("no decision") }
            #expect(try await station.store.partCount(executionId: reference) == 3)  // FRONT, NFC, FACE
            // Each part went to the credential that was open when it was taken.
            let parts = try await station.store.parts(executionId: reference)
            #expect(parts.first { $0.classifier == .face }?.category == .FACEMAP)
            #expect(parts.filter { $0.classifier != .face }.allSatisfy { $0.category == .ID })
            #expect(["PASSED", "WARNING", "REJECTED"].contains(decision))
            #expect(try await station.outbox.stats().records == 0)
            // Back to idle afterwards.
            try await station.display.wait(for: "idle again") { entries in
                entries.filter { if case .screen(.idle) = $0 { true } else { false } }.count >= 2
            }
            #expect(await station.loop.currentPhase == .idle)
        }
    }

    /// The ID card journey (`id-card-chip-face`): the front, `nextPart`, the back, the chip
    /// opened with the key read from the back's MRZ (a TD1 card has none on its front), the face.
    @Test func idCardFrontBackChipAndFaceJourneyEndsWithTheBackendsDecision() async throws {
        var options = StationHarness.Options()
        options.preset = .idCardChipFace
        options.mrz = DemoIDCard.mrz
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            #expect(result.isSuccess, "\(result)")
            #expect(result.credentials.first?.chipRead == true)
            let steps = station.display.messages.compactMap { if case .step(let s) = $0 { s } else { nil } }
            // One two-sided part: the person is told to turn the card between its sides.
            #expect(steps.contains(.started(.multipart, .docFinder)))
            let turn = try #require(steps.firstIndex(of: .nextPart(.back)))
            let chip = try #require(steps.firstIndex(of: .addonScanPart(.nfc)))
            #expect(turn < chip)
            #expect(steps.contains(.canFinish(.face)))
            // The chip was opened with the key the camera read from the back.
            #expect(station.chip.keysTried.withLock { $0 } == [StationHarness.chipKey])
            try await station.display.waitForScreen("decision") {
                if case .decision(_, let decision?) = $0 { decision.isEmpty == false } else { false }
            }
            guard case .decision(let reference, _) = station.display.screens.last(where: {
                if case .decision(_, .some) = $0 { true } else { false }
            }) else { throw TestFailure("no decision") }
            let parts = try await station.store.parts(executionId: reference)
            #expect(Set(parts.map(\.classifier)) == [.front, .back, .nfc, .face])
            // The station asked for an identity card, and the backend read the chip's TD1 zone as one.
            #expect(parts.first { $0.classifier == .front }?.filter?.type?.values == [.ID_CARD])
            let row = try #require(try await station.store.execution(clientId: station.clientId, executionId: reference))
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: try #require(row.result))
            #expect(details.idResult?.idType == .ID_CARD)
            #expect(details.idResult?.idSubType == "TD1")
            #expect(details.idResult?.extractionMethod == "nfc")
        }
    }

    /// Fastfill (seed 002): the data page and the chip, no face; the finalize says extraction
    /// only, so the backend extracts and decides nothing, and the station waits for no decision.
    @Test func fastfillReadsTheDocumentWithoutAFaceAndTheBackendDecidesNothing() async throws {
        var options = StationHarness.Options()
        options.preset = .fastfill
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            #expect(result.isSuccess, "\(result)")
            #expect(!result.verification)
            #expect(result.credentials.map(\.category) == [.id])
            #expect(result.credentials.first?.chipRead == true)
            let steps = station.display.messages.compactMap { if case .step(let s) = $0 { s } else { nil } }
            #expect(!steps.contains { if case .started(.face, _) = $0 { true } else { false } })
            // The reference for staff, and no decision: none is asked for.
            try await station.display.waitForScreen("reference") { if case .decision(_, nil) = $0 { true } else { false } }
            guard case .decision(let reference, nil) = station.display.screens.last(where: { if case .decision = $0 { true } else { false } }) else {
                throw TestFailure("no reference")
            }
            // The outbox delivers the journey (the finalize last).
            for _ in 0..<250 where try await station.outbox.stats().records > 0 { try await Task.sleep(for: .milliseconds(20)) }
            let row = try #require(try await station.store.execution(clientId: station.clientId, executionId: reference))
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: try #require(row.result))
            #expect(details.decision.type == .NOT_EXECUTED)
            #expect(details.idResult?.extractionMethod == "nfc")
            #expect(details.faceResult == nil)
            #expect(Set(try await station.store.parts(executionId: reference).map(\.category)) == [.ID])
            // Nothing more comes: the station never shows a decision for it.
            try await station.display.wait(for: "idle again") { entries in
                entries.filter { if case .screen(.idle) = $0 { true } else { false } }.count >= 2
            }
            #expect(!station.display.screens.contains { if case .decision(_, .some) = $0 { true } else { false } })
        }
    }

    /// The face capture is given the chip's portrait to compare with, and what the station's
    /// own checks found goes into the journey's result (the seeds' FaceResult).
    @Test func theStationsFaceChecksGoIntoTheResult() async throws {
        var options = StationHarness.Options()
        options.face = AuthenticationStationTests.annaToday
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            let portraits = station.camera.portraits.withLock { $0 }
            #expect(portraits.count == 1)
            #expect(portraits.first.flatMap { $0 } == ChipOutcome(station.chip.reading).portrait)
            #expect(portraits.first.flatMap { $0 }?.isEmpty == false)
            let face = try #require(result.credentials.first { $0.category == .face }?.face)
            #expect(face == JourneyResult.FaceCheck(liveness: .live, match: .match, similarity: 0.71))
            #expect(face.passed)
            #expect(result.credentials.first { $0.category == .id }?.face == nil)
        }
    }

    /// `backend.offline: refuse`: the person who finds the backend away is told (E), then the
    /// station is out of service naming the backend, and idles again once a probe finds it
    /// answering, with no one touching it.
    @Test func underRefuseAnUnreachableBackendTakesTheStationOutOfServiceUntilItAnswers() async throws {
        let away = SwitchableBackend()
        away.up.withLock { $0 = false }
        var options = StationHarness.Options()
        options.autopilot = false
        options.refusingWith = away
        try await StationHarness.with(options) { station in
            try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
            station.loop.submit(.station(.startJourney()))
            try await station.display.waitForMessage("error E") { if case .error(let error) = $0 { error.family == .E } else { false } }
            try await station.display.waitForScreen("out of service") {
                if case .outOfService(let devices) = $0 { devices.contains { $0.device == .backend && !$0.available } } else { false }
            }
            #expect(await station.loop.currentPhase == .outOfService)
            // Out of service, a touch starts nothing.
            station.loop.submit(.station(.startJourney()))
            away.up.withLock { $0 = true }
            try await station.display.wait(for: "idle again") { entries in
                entries.filter { if case .screen(.idle) = $0 { true } else { false } }.count >= 2
            }
            #expect(await station.loop.currentPhase == .idle)
            #expect(station.display.screens.filter { $0 == .starting }.count == 1)
        }
    }

    @Test func aDocumentOnTheReaderStartsAJourney() async throws {
        var options = StationHarness.Options()
        options.autopilot = false
        options.start = [.card]
        try await StationHarness.with(options) { station in
            try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
            station.loop.submit(.station(.startJourney()))  // touch is not configured: ignored
            station.chip.presenceContinuation.yield(.cardPresent(true))
            try await station.display.waitForMessage("initialized") { if case .initialized = $0 { true } else { false } }
            let starting = station.display.screens.filter { $0 == .starting }.count
            #expect(starting == 1)
        }
    }

    @Test func aCommandFromAStaleScreenIsAnsweredToThatDisplayOnly() async throws {
        var options = StationHarness.Options()
        options.autopilot = false
        try await StationHarness.with(options) { station in
            try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
            // Before any journey: the controller is not there.
            station.loop.submit(.flow(.confirm), from: DisplayClientID(7))
            try await station.display.wait(for: "answer") { $0.contains(.answer(.logicalError(.deadController), DisplayClientID(7))) }
            station.loop.submit(.station(.startJourney()))
            try await station.display.waitForMessage("initialized") { if case .initialized = $0 { true } else { false } }
            // `confirm` before any part: a logical error for display 3, nothing for the others.
            station.loop.submit(.flow(.confirm), from: DisplayClientID(3))
            try await station.display.wait(for: "stale answer") { entries in
                entries.contains { if case .answer(.logicalError, DisplayClientID(3)) = $0 { true } else { false } }
            }
            #expect(!station.display.messages.contains { if case .logicalError = $0 { true } else { false } })
        }
    }

    /// The chip refuses the key read from the MRZ: the display asks the person, who types the
    /// card access number, and the chip is read with it.
    /// From the idle screen: a journey started, every consent given, the station's first
    /// credential started; its id.
    @discardableResult
    static func startCredential(_ station: StationHarness) async throws -> String {
        try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
        station.loop.submit(.station(.startJourney()))
        try await station.display.waitForMessage("initialized") { if case .initialized = $0 { true } else { false } }
        let ids: [String] = station.display.messages.compactMap { message -> String? in
            if case .initialized(let credentials, _) = message { credentials.first?.id } else { nil }
        }
        let id = try #require(ids.first)
        let items: [ConsentItem] = station.display.messages.compactMap { message -> [ConsentItem]? in
            if case .initialized(_, let items) = message { items } else { nil }
        }.first ?? []
        for item in items { station.loop.submit(.flow(.userConsented(itemID: item.id, decision: true))) }
        station.loop.submit(.flow(.startCredential(id: id)))
        try await station.display.waitForMessage("credential") { if case .credentialStarted = $0 { true } else { false } }
        return id
    }

    @Test func aRefusedKeyIsAskedOfThePersonAndTheTypedKeyOpensTheChip() async throws {
        var options = StationHarness.Options()
        options.autopilot = false
        options.chip = .opensWith(.can("123456"))
        try await StationHarness.with(options) { station in
            try await Self.startCredential(station)
            if case .credentialStarted(_, false, _)? = station.display.messages.last(where: { if case .credentialStarted = $0 { true } else { false } }) {
                station.loop.submit(.flow(.setConfiguration(country: "UTO", document: Document(.passport))))
            }
            station.loop.submit(.flow(.startScanPart(.front)))
            try await station.display.waitForMessage("confirmation") { $0 == .step(.confirmationView(.front)) }
            station.loop.submit(.flow(.confirm))
            station.loop.submit(.flow(.finishScanPart))
            try await station.display.waitForMessage("key asked") { $0 == .step(.chipKeyView(.nfc, .refused)) }
            station.loop.submit(.flow(.enterChipKey(.can("123456"))))
            try await station.display.waitForMessage("chip read") { $0 == .step(.canFinish(.nfc)) }
            #expect(station.chip.keysTried.withLock { $0 } == [StationHarness.chipKey, .can("123456")])
            #expect(station.display.messages.contains(.update(.nfcExtractionFinished)))
        }
    }

    @Test func cancellingWipesTheUnsentPartsOfTheJourney() async throws {
        var options = StationHarness.Options()
        options.autopilot = false
        options.sender = false  // the backend "is away": parts stay in the outbox
        try await StationHarness.with(options) { station in
            try await Self.startCredential(station)
            if case .credentialStarted(_, false, _)? = station.display.messages.last(where: { if case .credentialStarted = $0 { true } else { false } }) {
                station.loop.submit(.flow(.setConfiguration(country: "UTO", document: Document(.passport))))
            }
            station.loop.submit(.flow(.startScanPart(.front)))
            try await station.display.waitForMessage("confirmation") { $0 == .step(.confirmationView(.front)) }
            #expect(try await station.outbox.stats().records >= 1)
            station.loop.submit(.flow(.cancel))
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            try await station.display.wait(for: "wipe") { _ in true }
            // Give the wipe (the action after `finished`) its turn, then look.
            try await station.display.wait(for: "result screen over") { entries in
                entries.filter { if case .screen(.idle) = $0 { true } else { false } }.count >= 2
            }
            #expect(try await station.outbox.stats().records == 0)
            let result = station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first
            #expect(result?.error == .cancelledByUser)
        }
    }

    @Test func withTheBackendAwayTheJourneyEndsWithAReferenceAndTheOutboxDeliversLater() async throws {
        var options = StationHarness.Options()
        options.sender = false
        options.decisionWait = .zero
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            try await station.display.waitForScreen("reference") { if case .decision(_, nil) = $0 { true } else { false } }
            guard case .decision(let reference, nil) = station.display.screens.first(where: { if case .decision = $0 { true } else { false } })
            else { throw TestFailure("no reference") }
            let waiting = try await station.outbox.stats().records
            #expect(waiting >= 4)  // the parts and the finalisation
            #expect(try await station.store.partCount(executionId: reference) == 0)
            // The backend "comes back": the outbox delivers everything, once.
            var sent = 0
            for _ in 0..<5 { sent += try await station.drainOutbox() }  // the finalisation goes after the parts
            #expect(sent == waiting)
            #expect(try await station.outbox.stats().records == 0)
            #expect(try await station.store.partCount(executionId: reference) == 3)
        }
    }

    @Test func theDocumentLiftedDuringTheChipReadIsAskedBackAndTheReadResumes() async throws {
        var options = StationHarness.Options()
        options.chip = .liftedOnce
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let screens = station.display.screens
            let lifted = try #require(screens.firstIndex(of: .documentLifted))
            let back = try #require(screens.firstIndex(of: .documentReturned))
            #expect(lifted < back)
            let result = station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first
            #expect(result?.isSuccess == true)
            #expect(result?.credentials.first?.chipRead == true)
        }
    }

    @Test func aCameraLostMidCaptureEndsTheJourneyWithH() async throws {
        var options = StationHarness.Options()
        options.camera = .lostAfterStart
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first
            #expect(result?.error?.family == .H)
            // Out of service until the camera is back, then idle by itself.
            try await station.display.waitForScreen("out of service") { screen in
                if case .outOfService(let devices) = screen { devices.map(\.device) == [.camera] } else { false }
            }
            #expect(await station.loop.currentPhase == .outOfService)
            station.camera.plugBackIn()
            try await station.display.wait(for: "idle again") { entries in
                entries.filter { if case .screen(.idle) = $0 { true } else { false } }.count >= 2
            }
        }
    }

    @Test func nobodyAnsweringIsWarnedThenWipedAndTheStationIdles() async throws {
        var options = StationHarness.Options()
        options.autopilot = false
        options.inactivity = .milliseconds(150)
        options.grace = .milliseconds(150)
        options.sender = false
        try await StationHarness.with(options) { station in
            try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
            station.loop.submit(.station(.startJourney()))
            try await station.display.waitForMessage("warning") { if case .inactivityWarning = $0 { true } else { false } }
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first
            #expect(result?.error == .abandoned)
            try await station.display.wait(for: "idle again") { entries in
                entries.filter { if case .screen(.idle) = $0 { true } else { false } }.count >= 2
            }
            #expect(try await station.outbox.stats().records == 0)
        }
    }

    @Test func shutdownMidJourneyCancelsAndWipesButKeepsFinishedDeliveries() async throws {
        var options = StationHarness.Options()
        options.autopilot = false
        options.sender = false
        try await StationHarness.with(options) { station in
            try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
            // A finalised delivery of an earlier journey waits in the outbox.
            let earlier = ExecutionRef(accountId: "a-earlier", workflowExecutionId: "w-earlier", sessionToken: "t")
            try await station.outbox.enqueue(.finalize(earlier))
            station.loop.submit(.station(.startJourney()))
            try await station.display.waitForMessage("initialized") { if case .initialized = $0 { true } else { false } }
            station.loop.shutdown()
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first
            #expect(result?.error == .cancelledByUser)
            try await station.display.wait(for: "stopped") { _ in true }
            for _ in 0..<100 where await station.loop.currentPhase != .stopped { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await station.loop.currentPhase == .stopped)
            #expect(try await station.outbox.stats().records == 1)
        }
    }
}
