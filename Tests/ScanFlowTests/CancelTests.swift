import ScanFlow
import Testing

@Suite struct CancelTests {
    @Test(arguments: Stage.allCases)
    func cancelEndsTheJourneyFromEveryStage(_ stage: Stage) {
        var h = stage.harness()
        let actions = h.send { $0.cancel() }
        #expect(actions.result?.error == .cancelledByUser)
        #expect(actions.result?.isSuccess == false)
        #expect(actions.suffix(2) == [.display(.finished(actions.result!)), .wipeSession])
        #expect(actions.contains(.stopCamera) == stage.holdsCamera)
        #expect(actions.contains(.stopChipRead) == (stage == .awaitingChip || stage == .readingChip))
        // Cancelling is not an error to show: only the result carries G.
        #expect(!actions.displayed.contains { if case .error = $0 { true } else { false } })
        #expect(h.controller.hasEnded)
        #expect(h.timers.isEmpty)
        #expect(h.send { $0.cancel() } == [.display(.logicalError(.deadController))])
        #expect(h.send { $0.timeoutFired(Timeout(.session, generation: 0)) } == [])
        #expect(h.send { $0.partProcessed(.accepted) } == [])
    }
}
