import Backend
import Display
import Foundation
import KioskTestKit
import ScanFlow
import Station
import Testing

/// The `document` preset through the station loop: the fake camera shows page after page,
/// the autopilot says "that was the last page" after its document's pages, and the real
/// reference backend receives each page as PAGE_<n> of the DOCUMENT credential.
@Suite struct PaperDocumentLoopTests {
    @Test func everyPageReachesTheBackendInOrderAndTheBackendDecides() async throws {
        var options = StationHarness.Options()
        options.preset = .document
        options.documentPages = 3
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(station.display.messages.compactMap { if case .finished(let r) = $0 { r } else { nil } }.first)
            #expect(result.isSuccess, "\(result)")
            #expect(result.credentials.map(\.category) == [.document])
            let updates = station.display.messages.compactMap { if case .update(.nextPosition(let count?)) = $0 { count } else { nil } }
            #expect(updates.map(\.taken).prefix(3) == [1, 2, 3])
            let steps = station.display.messages.compactMap { if case .step(let s) = $0 { s } else { nil } }
            #expect(steps.filter { $0 == .imageTaken(.document) }.count == 1)
            try await station.display.waitForScreen("decision") {
                if case .decision(_, let decision?) = $0 { decision.isEmpty == false } else { false }
            }
            guard case .decision(let reference, let decision?) = station.display.screens.last(where: {
                if case .decision(_, .some) = $0 { true } else { false }
            }) else { throw TestFailure("no decision") }
            let parts = try await station.store.parts(executionId: reference)
            #expect(parts.map(\.classifier.rawValue).sorted() == ["PAGE_1", "PAGE_2", "PAGE_3"])
            #expect(parts.allSatisfy { $0.category == .DOCUMENT })
            // Each page is the picture shown as that page.
            for part in parts {
                #expect([UInt8](part.body) == FakeCamera.page(part.classifier.pageNumber ?? 0))
            }
            #expect(decision == "PASSED")
        }
    }
}
