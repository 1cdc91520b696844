import ScanFlow
import Testing

@Suite struct ConsentTests {
    @Test func refusingEndsTheJourneyCleanly() {
        var h = Stage.consent.harness()
        let end = h.send { $0.userConsented(itemID: "privacy", decision: false) }
        #expect(end.result?.error == .consentRefused)
        #expect(end.result?.error?.code == "G000002")
        #expect(end.result?.credentials == [])
        #expect(end.suffix(2) == [.display(.finished(end.result!)), .wipeSession])
        #expect(!h.log.contains(.startCamera(.docFinder)))
    }

    @Test func everyActiveItemMustBeAnswered() {
        var h = Harness()
        var workflow = Fixtures.passportAndFace
        let second = ConsentItem(id: "biometrics", type: .active, text: "Biometrics", url: "https://example.org/b")
        workflow.consentItems = [Fixtures.privacy, second, Fixtures.notice]
        h.send { $0.start(workflow: workflow) }
        h.send { $0.userConsented(itemID: "privacy", decision: true) }
        #expect(h.send { $0.startCredential(id: "id-1") } == [.display(.logicalError(.needToConsentFirst))])
        h.send { $0.userConsented(itemID: "biometrics", decision: true) }
        #expect(h.send { $0.startCredential(id: "id-1") }.displayed.count == 1)
    }

    @Test func passiveItemsAreAcceptedByGoingOn() {
        var h = Harness()
        var workflow = Fixtures.passportAndFace
        workflow.consentItems = [Fixtures.notice]
        let start = h.send { $0.start(workflow: workflow) }
        #expect(start.displayed == [.initialized(credentials: workflow.credentials, consentItems: [Fixtures.notice])])
        #expect(h.timers[.inactivity]?.deadline == .seconds(60))
        #expect(
            h.send { $0.startCredential(id: "id-1") }.displayed == [
                .credentialStarted(id: "id-1", isConfigured: true, parts: [.front])
            ]
        )
    }

    @Test func noConsentRequiredMeansNoConsentItems() {
        var h = Harness()
        let start = h.send { $0.start(workflow: Fixtures.workflow(Fixtures.faceCredential)) }
        #expect(start.displayed == [.initialized(credentials: [Fixtures.faceCredential], consentItems: nil)])
        #expect(h.send { $0.startCredential(id: "face-1") }.displayed.count == 1)
    }

    @Test func anUnknownItemIsAMisuse() {
        var h = Stage.consent.harness()
        #expect(h.send { $0.userConsented(itemID: "other", decision: true) } == [.display(.logicalError(.needToConsentFirst))])
        #expect(h.send { $0.startCredential(id: "id-1") } == [.display(.logicalError(.needToConsentFirst))])
    }

    @Test func withdrawingConsentLaterEndsTheJourney() {
        var h = Stage.scanning.harness()
        let end = h.send { $0.userConsented(itemID: "privacy", decision: false) }
        #expect(end.contains(.stopCamera))
        #expect(end.result?.error == .consentRefused)
    }
}
