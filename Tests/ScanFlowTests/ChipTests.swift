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

    /// No key read from the MRZ in time: the chip part asks the person to type one, and the
    /// chip is read with what they typed.
    @Test func noMachineReadableZoneAsksThePersonForTheKey() {
        var h = Stage.scanning.harness(configuration: .init(inactivityTimeouts: [.chipKey: .seconds(90)]))
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        h.send { $0.partProcessed(.accepted) }
        h.send { $0.confirm() }
        let asked = h.send { $0.finishScanPart() }
        #expect(
            asked.withoutTimers == [
                .display(.step(.addonScanPart(.nfc))), .display(.step(.started(.nfc, .nfc))), .display(.step(.chipKeyView(.nfc, .notRead))),
            ]
        )
        #expect(!h.log.contains { if case .startChipRead = $0 { true } else { false } })
        // Its own inactivity timer: typing takes longer than putting a document down.
        #expect(asked.contains { if case .scheduleTimeout(let timeout, let after) = $0 { timeout.kind == .inactivity && after == .seconds(90) } else { false } })
        let typed = ChipAccessKey.can("123456")
        #expect(h.send { $0.enterChipKey(typed) }.withoutTimers == [.display(.step(.scanView(.nfc, .nfc))), .startChipRead(typed)])
        h.send { $0.chipReadStarted() }
        h.send { $0.chipReadFinished() }
        h.send { $0.finishScanPart() }
        #expect(h.controller.credentials[0].chipRead)
    }

    /// The chip refuses the first key the frames agreed on: the next is tried, then the
    /// person is asked; a refused typed key counts as a failed attempt, and after three the
    /// station asks for staff. The person may go on without the chip from the key view.
    @Test func aRefusedKeyLeadsToTheNextKeyThenToThePerson() {
        let second = ChipAccessKey.mrz(documentNumber: "L898902C8", dateOfBirth: "740812", dateOfExpiry: "120415")
        var h = Stage.scanning.harness()
        h.send { $0.imageCaptured(CapturedImage(bytes: [0xFF, 0xD8], side: .front, chipAccessKeys: [Fixtures.mrzKey, second])) }
        h.send { $0.partProcessed(.accepted) }
        h.send { $0.confirm() }
        #expect(h.send { $0.finishScanPart() }.withoutTimers.last == .startChipRead(Fixtures.mrzKey))
        #expect(h.send { $0.chipRefusedKey() }.withoutTimers == [.stopChipRead, .display(.step(.scanView(.nfc, .nfc))), .startChipRead(second)])
        h.send { $0.chipReadStarted() }
        #expect(
            h.send { $0.chipRefusedKey() }.withoutTimers == [
                .stopChipRead, .display(.update(.nfcExtractionFinished)), .display(.step(.chipKeyView(.nfc, .refused))),
            ]
        )
        for attempt in 1...3 {
            let typed = ChipAccessKey.can(String(repeating: String(attempt), count: 6))
            #expect(h.send { $0.enterChipKey(typed) }.withoutTimers.last == .startChipRead(typed))
            let refused = h.send { $0.chipRefusedKey() }.withoutTimers
            #expect(refused.contains(.display(.step(.chipKeyView(.nfc, .refused)))))
            #expect(refused.contains(.display(.askStaff(.nfc))) == (attempt == 3), "attempt \(attempt)")
        }
        #expect(h.send { $0.switchToFallback() }.withoutTimers == [.display(.update(.fallback(.userAction))), .display(.step(.canFinish(.nfc)))])
        h.send { $0.finishScanPart() }
        #expect(h.controller.credentials[0].isComplete)
        #expect(!h.controller.credentials[0].chipRead)
    }

    @Test func aKeyIsTypedOnlyWhenAskedFor() {
        var h = Stage.awaitingChip.harness()
        #expect(h.send { $0.enterChipKey(.can("123456")) } == [.display(.logicalError(.scanPartNotCompleted))])
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
