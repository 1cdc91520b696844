import Backend
import Display
import Foundation
import KioskTestKit
import ScanFlow
import Station
import Testing

/// A Digital Identity journey through the station loop and the real reference backend: the
/// test plays the person's phone, opening the hand-off address the station shows.
@Suite struct DigitalIdentityLoopTests {
    /// The phone opens the address and answers at the provider.
    static func phone(_ url: String, answer outcome: String) async throws {
        let opened = try await HandoffPhone.open(url)
        #expect(opened.status == 200)
        #expect(opened.page.contains("data-outcome=\"verify\""))
        #expect(try await HandoffPhone.answer(url, outcome: outcome) == 200)
    }

    /// Starts the journey and chooses the Digital Identity; the hand-off address shown.
    static func handoff(_ station: StationHarness) async throws -> String {
        try await StationLoopTests.startCredential(station)
        let credential = try #require(station.display.messages.compactMap { message -> Credential.Info? in
            if case .initialized(let credentials, _) = message { credentials.first } else { nil }
        }.first)
        let (country, documents) = try #require(credential.digitalDocuments.first)
        station.loop.submit(.flow(.setDigitalConfiguration(country: country, digitalDocument: try #require(documents.first))))
        try await station.display.waitForMessage("configured") { if case .credentialConfigured = $0 { true } else { false } }
        station.loop.submit(.flow(.startScanPart(.digital)))
        try await station.display.waitForMessage("digitalIdentityView") { $0 == .step(.digitalIdentityView(.digital)) }
        let handoff = try #require(station.display.messages.compactMap { if case .digitalHandoff(let h) = $0 { h } else { nil } }.last)
        return handoff.url
    }

    static var options: StationHarness.Options {
        var options = StationHarness.Options()
        options.autopilot = false
        options.preset = .digitalIdentity
        return options
    }

    @Test func thePhoneSharesTheIdentityAndTheBackendRecordsIt() async throws {
        try await StationHarness.with(Self.options) { station in
            let url = try await Self.handoff(station)
            try await Self.phone(url, answer: "verify")
            // The station saw the phone open it, then the provider's outcome.
            try await station.display.waitForMessage("canFinish") { $0 == .step(.canFinish(.digital)) }
            let steps = station.display.messages.compactMap { if case .step(let s) = $0 { s } else { nil } }
            #expect(steps.contains(.processing(.digital)))
            station.loop.submit(.flow(.finishScanPart))
            station.loop.submit(.flow(.finishCredential))
            station.loop.submit(.flow(.finish))
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            #expect(result.isSuccess, "\(result)")
            // The backend's record: the provider's verification stands for the document.
            try await station.display.waitForScreen("decision") { if case .decision(_, let decision?) = $0 { !decision.isEmpty } else { false } }
            guard case .decision(let reference, let decision?) = station.display.screens.last(where: {
                if case .decision(_, .some) = $0 { true } else { false }
            }) else { throw TestFailure("no decision") }
            #expect(decision == "PASSED")
            let row = try #require(try await station.store.execution(clientId: station.clientId, executionId: reference))
            let details = try JSONDecoder().decode(WorkflowExecutionDetails.self, from: try #require(row.result))
            #expect(details.capabilities.extraction.contains(CapabilityResult(id: "extraction-DIGITAL_IDENTITY", credentialId: result.credentials.first?.id, decision: .PASSED)))
            #expect(try await station.store.partCount(executionId: reference) == 0)
        }
    }

    @Test func aFailedVerificationIsTriedAgainOnTheSameAddress() async throws {
        try await StationHarness.with(Self.options) { station in
            let url = try await Self.handoff(station)
            try await Self.phone(url, answer: "fail")
            try await station.display.waitForMessage("retry") { if case .step(.retry(.digital, _)) = $0 { true } else { false } }
            station.loop.submit(.flow(.retake))
            _ = try await station.display.wait(for: "the hand-off again") { entries in
                entries.filter { if case .message(.step(.digitalIdentityView)) = $0 { true } else { false } }.count == 2
            }
            try await Self.phone(url, answer: "verify")
            try await station.display.waitForMessage("canFinish") { $0 == .step(.canFinish(.digital)) }
        }
    }

    @Test func declinedOnThePhoneThePersonChoosesAgainOrCancels() async throws {
        try await StationHarness.with(Self.options) { station in
            let url = try await Self.handoff(station)
            try await Self.phone(url, answer: "cancel")
            // The credential starts again, not configured: the selection shows again.
            _ = try await station.display.wait(for: "back to the selection") { entries in
                entries.filter { if case .message(.credentialStarted(_, false, _)) = $0 { true } else { false } }.count == 2
            }
            station.loop.submit(.flow(.cancel))
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            #expect(result.error == .cancelledByUser)
        }
    }
}
