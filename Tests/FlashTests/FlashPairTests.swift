import Flash
import Testing

@Suite("Flash/no-flash frame pair")
struct FlashPairTests {
    let period = Duration.milliseconds(33)

    @Test func keepsOneFrameEachSideOfTheSwitch() {
        var pair = FlashPair(framePeriod: period)
        #expect(pair.start(at: .milliseconds(1000)) == [])
        #expect(pair.frameArrived(timestamp: .milliseconds(990)) == [.dropFrame])  // older than the start
        #expect(pair.frameArrived(timestamp: .milliseconds(1010)) == [.keepNoFlashFrame, .switchFlash(.on)])
        #expect(pair.frameArrived(timestamp: .milliseconds(1043)) == [.dropFrame])  // LED not confirmed on yet
        #expect(pair.flashSwitched(.on, at: .milliseconds(1050)) == [])
        // Exposure may have begun before 1050: drop until 1050 + one period.
        #expect(pair.frameArrived(timestamp: .milliseconds(1076)) == [.dropFrame])
        #expect(pair.frameArrived(timestamp: .milliseconds(1082)) == [.dropFrame])
        #expect(pair.frameArrived(timestamp: .milliseconds(1083)) == [.keepFlashFrame, .switchFlash(.off)])
        #expect(pair.frameArrived(timestamp: .milliseconds(1116)) == [.dropFrame])
        #expect(pair.flashSwitched(.off, at: .milliseconds(1090)) == [.completed])
        #expect(pair.isFinished)
        #expect(pair.droppedFrames == 4)
    }

    @Test func timeoutWithTheLEDOnSwitchesItOff() {
        var pair = FlashPair(framePeriod: period, timeLimit: .seconds(1))
        _ = pair.start(at: .seconds(10))
        _ = pair.frameArrived(timestamp: .seconds(10) + .milliseconds(5))
        _ = pair.flashSwitched(.on, at: .seconds(10) + .milliseconds(10))
        #expect(pair.tick(now: .seconds(10) + .milliseconds(999)) == [])
        #expect(pair.tick(now: .seconds(11)) == [.switchFlash(.off), .failed])
        #expect(pair.isFinished)
        #expect(pair.tick(now: .seconds(12)) == [])
    }

    @Test func timeoutBeforeAnyFrameOnlyFails() {
        var pair = FlashPair(framePeriod: period, timeLimit: .seconds(1))
        _ = pair.start(at: .zero)
        #expect(pair.tick(now: .seconds(1)) == [.failed])
    }

    @Test func framesBeforeStartAndStraySwitchesAreIgnored() {
        var pair = FlashPair(framePeriod: period)
        #expect(pair.frameArrived(timestamp: .zero) == [.dropFrame])
        #expect(pair.flashSwitched(.on, at: .zero) == [])
        #expect(pair.tick(now: .seconds(100)) == [])
        #expect(!pair.isFinished)
    }
}
