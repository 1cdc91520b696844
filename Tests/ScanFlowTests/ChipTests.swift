import ScanFlow
import Testing

@Suite struct ChipTests {
    @Test func anUnreadableChipIsSkipped() {
        var h = Stage.readingChip.harness()
        #expect(
            h.send { $0.chipUnreadable() }.withoutTimers == [
                .stopChipRead, .display(.update(.nfcExtractionFinished)), .display(.step(.canFinish(.nfc))),
            ]
        )
        #expect(!h.log.contains(.uploadChipData))
        h.send { $0.finishScanPart() }
        #expect(h.controller.credentials[0].isComplete)
        #expect(!h.controller.credentials[0].chipRead)
        h.send { $0.finishCredential() }
        #expect(h.send { $0.startCredential(id: "face-1") }.displayed.count == 1)
    }

    @Test func aReaderLostWhileWaitingSkipsTheChip() {
        var h = Stage.awaitingChip.harness()
        #expect(h.send { $0.deviceLost(.reader) }.withoutTimers.first == .stopChipRead)
        #expect(h.steps.last == .canFinish(.nfc))
    }

    @Test func noReaderMeansNoAddon() {
        var h = Stage.canFinish.harness()
        h.send { $0.deviceLost(.reader) }
        #expect(h.send { $0.finishScanPart() }.withoutTimers == [])
        #expect(h.controller.currentScanPart == nil)
        h.send { $0.deviceRestored(.reader) }
        #expect(h.controller.credentials[0].isComplete)
    }

    @Test func noMachineReadableZoneMeansNoAddon() {
        var h = Stage.scanning.harness()
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        h.send { $0.partProcessed(.accepted) }
        h.send { $0.confirm() }
        #expect(h.send { $0.finishScanPart() }.withoutTimers == [])
        #expect(!h.log.contains { if case .startChipRead = $0 { true } else { false } })
    }

    @Test func progressIsClampedAndOnlyWhileReading() {
        var h = Stage.awaitingChip.harness()
        #expect(h.send { $0.chipReadProgress(10) } == [])
        h.send { $0.chipReadStarted() }
        #expect(h.send { $0.chipReadProgress(140) } == [.display(.update(.nfcExtractionProgress(100)))])
        #expect(h.send { $0.chipReadProgress(-3) } == [.display(.update(.nfcExtractionProgress(0)))])
    }

    @Test func thePersonMaySkipTheChip() {
        var h = Stage.awaitingChip.harness()
        #expect(
            h.send { $0.switchToFallback() }.withoutTimers == [
                .stopChipRead, .display(.update(.fallback(.userAction))), .display(.step(.canFinish(.nfc))),
            ]
        )
        h.send { $0.finishScanPart() }
        #expect(h.controller.credentials[0].isComplete)
        #expect(!h.controller.credentials[0].chipRead)
    }
}
