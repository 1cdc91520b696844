import ScanFlow
import Testing

@Suite struct RetakeTests {
    @Test func rejectThenRetake() {
        var h = Stage.processing.harness()
        #expect(
            h.send { $0.partProcessed(.rejected([.front: .glare])) }.withoutTimers == [
                .display(.step(.rejectView([.front: .glare])))
            ]
        )
        #expect(h.send { $0.confirm() } == [.display(.logicalError(.scanPartNotCompleted))])
        #expect(h.send { $0.retake() }.withoutTimers == [.display(.step(.prepare(.front))), .startCamera(.docFinder)])
        h.send { $0.cameraStarted() }
        let second = Fixtures.image(.front, key: Fixtures.mrzKey)
        // The retaken part uploads only its new image.
        #expect(h.send { $0.imageCaptured(second) }.contains(.uploadPart(.front, [second])))
        #expect(h.send { $0.partProcessed(.accepted) }.displayed == [.step(.confirmationView(.front))])
    }

    @Test func retakeFromTheConfirmationView() {
        var h = Stage.confirmation.harness()
        #expect(h.send { $0.retake() }.withoutTimers == [.display(.step(.prepare(.front))), .startCamera(.docFinder)])
    }

    @Test func retryCarriesItsReason() {
        var h = Stage.processing.harness()
        let reason = Retry.Reason(code: 3, message: "Face not centred")
        #expect(h.send { $0.partProcessed(.retry(reason)) }.displayed == [.step(.retry(.front, reason))])
        #expect(h.timers[.inactivity] != nil)
        #expect(h.send { $0.retake() }.contains(.startCamera(.docFinder)))
    }

    @Test func repeatedFailuresOfferTheFallback() {
        var h = Stage.scanning.harness(configuration: .init(maxAttemptsPerPart: 2))
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        #expect(h.send { $0.partProcessed(.rejected([.front: .blurry])) }.displayed == [.step(.rejectView([.front: .blurry]))])
        h.send { $0.retake() }
        h.send { $0.cameraStarted() }
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        #expect(
            h.send { $0.partProcessed(.rejected([.front: .blurry])) }.displayed == [
                .step(.rejectView([.front: .blurry])), .offerFallback(.front, .manual),
            ]
        )
        #expect(
            h.send { $0.switchToFallback() }.withoutTimers == [
                .display(.update(.fallback(.userAction))), .display(.step(.prepare(.front))), .startCamera(.manual),
            ]
        )
        #expect(h.controller.currentScanPart?.mode == .manual)
        h.send { $0.cameraStarted() }
        #expect(h.send { $0.takeImage() }.withoutTimers == [.captureImage])
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        // The fallback mode counts its own attempts; once it fails as often, staff is asked.
        #expect(h.send { $0.partProcessed(.retry(Retry.Reason(code: 1, message: "x"))) }.displayed.count == 1)
        h.send { $0.retake() }
        h.send { $0.cameraStarted() }
        h.send { $0.takeImage() }
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        #expect(h.send { $0.partProcessed(.rejected([.front: .noDocument])) }.displayed.last == .askStaff(.front))
        #expect(h.send { $0.switchToFallback() } == [.display(.logicalError(.noFallbackAvailable))])
        // Staff may still help the person to retake.
        #expect(h.send { $0.retake() }.contains(.startCamera(.manual)))
    }

    @Test func lowPerformanceSwitchesToTheFallbackByItself() {
        var h = Stage.scanning.harness()
        #expect(
            h.send { $0.lowPerformance() }.withoutTimers == [
                .stopCamera, .display(.update(.fallback(.lowPerformance))), .display(.step(.prepare(.front))),
                .startCamera(.manual),
            ]
        )
        h.send { $0.cameraStarted() }
        // Manual has no fallback: the pipeline's complaint changes nothing now.
        #expect(h.send { $0.lowPerformance() } == [])
    }

    @Test func pauseAndRetryScanForAHelpScreen() {
        var h = Stage.scanning.harness()
        #expect(h.send { $0.pauseScan() }.withoutTimers == [.pauseDetection])
        #expect(h.timers[.inactivity] != nil)
        // Detection is paused: guidance and frames in flight are dropped.
        #expect(h.send { $0.scanUpdate(.extractionState(.holdStill)) } == [])
        #expect(h.send { $0.imageCaptured(Fixtures.image(.front)) } == [])
        #expect(h.send { $0.takeImage() } == [.display(.logicalError(.takePictureNotAllowed))])
        #expect(h.send { $0.pauseScan() } == [.display(.logicalError(.scanPartNotCompleted))])
        #expect(h.send { $0.retryScan() }.withoutTimers == [.resumeDetection])
        #expect(h.send { $0.retryScan() } == [.display(.logicalError(.scanPartNotCompleted))])
        #expect(h.send { $0.scanUpdate(.extractionState(.holdStill)) } == [.display(.update(.extractionState(.holdStill)))])
    }

    /// A document that is never found: each help request counts as a try, so after the
    /// configured tries the fallback is offered, and in the fallback mode staff is asked,
    /// long before the inactivity timeout ends the journey.
    @Test func helpRequestsCountAsTriesAndLeadToTheFallbackThenToStaff() {
        var h = Stage.scanning.harness(configuration: .init(maxAttemptsPerPart: 2))
        #expect(h.send { $0.pauseScan() }.withoutTimers == [.pauseDetection])
        h.send { $0.retryScan() }
        #expect(h.send { $0.pauseScan() }.withoutTimers == [.pauseDetection, .display(.offerFallback(.front, .manual))])
        #expect(h.send { $0.switchToFallback() }.contains(.startCamera(.manual)))
        h.send { $0.cameraStarted() }
        // The fallback mode counts its own tries.
        #expect(h.send { $0.pauseScan() }.withoutTimers == [.pauseDetection])
        h.send { $0.retryScan() }
        #expect(h.send { $0.pauseScan() }.withoutTimers == [.pauseDetection, .display(.askStaff(.front))])
        // The person may still go on, or stop: cancelling ends the journey and wipes the session.
        #expect(h.send { $0.retryScan() }.withoutTimers == [.resumeDetection])
        #expect(h.send { $0.cancel() }.contains(.wipeSession))
    }

    @Test func scanUpdatesPassThroughOnlyWhileScanning() {
        var h = Stage.scanning.harness()
        let updates: [Scan.Update] = [
            .extractionState(.centerId), .extractionState(.tooClose), .extractionState(.moveCloser),
            .extractionState(.holdStraight), .extractionState(.centerFace), .extractionState(.levelEyesAndDevice),
            .flash(.on), .flash(.off), .cameraAvailable(true), .legalHint("Scanning is recorded"),
        ]
        for update in updates {
            #expect(h.send { $0.scanUpdate(update) } == [.display(.update(update))])
        }
        var processing = Stage.processing.harness()
        #expect(processing.send { $0.scanUpdate(.flash(.on)) } == [])
    }
}
