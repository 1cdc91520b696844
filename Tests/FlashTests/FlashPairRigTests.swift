import Camera
import Flash
import Glibc
import Imaging
import Logging
import Testing

private func monotonicNow() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

/// The flash/no-flash pair with vivid's frames and the gpio-sim line, in the rig VM.
@Suite(
    "Flash pair with vivid and gpio-sim in the rig VM",
    .enabled(if: GPIOSim.isActive && getenv("IDKIOSK_RIG") != nil, "needs vivid and gpio-sim in the rig VM: run `make rig-test`"))
struct FlashPairRigTests {
    let logger = Logger(label: "FlashPairRigTests")

    @Test func pairKeepsAFrameBeforeTheSwitchAndAFullyLitOneAfter() async throws {
        let camera = try V4L2Camera(name: "bus:platform:vivid-000", logger: logger)
        let mode = try #require(
            camera.modes().filter { $0.format == .yuyv && $0.width == 320 && $0.height == 180 }.max { $0.framesPerSecond < $1.framesPerSecond })
        let actual = try camera.configure(mode)
        try camera.startStreaming()
        defer { camera.stop() }
        let line = try GPIODLine(chip: GPIOSim.chip, line: GPIOSim.line)
        defer { line.release() }
        let flash = Flash(line: line, maximumOn: .seconds(10), clock: ContinuousClock(), logger: logger)

        var pair = FlashPair(framePeriod: actual.interval.duration, timeLimit: .seconds(30))
        _ = pair.start(at: monotonicNow())
        var noFlash: Frame?, lit: Frame?
        var switchedOn: Duration?
        var switches: [FlashState] = []
        var completed = false
        var guardCount = 0
        while !pair.isFinished && guardCount < 200 {
            guardCount += 1
            let frame = try camera.readFrame(timeout: .seconds(5))
            var pending = pair.frameArrived(timestamp: frame.timestamp) + pair.tick(now: monotonicNow())
            while !pending.isEmpty {
                let action = pending.removeFirst()
                if case .switchFlash(let state) = action { switches.append(state) }
                switch action {
                case .keepNoFlashFrame: noFlash = frame
                case .keepFlashFrame: lit = frame
                case .switchFlash(.on):
                    try await flash.on()
                    let at = monotonicNow()
                    switchedOn = at
                    #expect(GPIOSim.value() == 1)
                    pending += pair.flashSwitched(.on, at: at)
                case .switchFlash(.off):
                    try await flash.off()
                    pending += pair.flashSwitched(.off, at: monotonicNow())
                case .completed: completed = true
                case .failed: Issue.record("the pair timed out")
                case .dropFrame: break
                }
            }
        }
        #expect(completed)
        #expect(switches == [.on, .off])
        #expect(GPIOSim.value() == 0)
        let before = try #require(noFlash), after = try #require(lit), on = try #require(switchedOn)
        // vivid stamps the end of a frame (V4L2_BUF_FLAG_TSTAMP_SRC_EOF): the no-flash
        // frame ended less than a period after the switch, so it began before it...
        #expect(before.timestamp < on + actual.interval.duration)
        // ...and the flash frame began after the switch: it ended a period or more later.
        #expect(after.timestamp >= on + actual.interval.duration)
        #expect(after.sequence > before.sequence)
    }
}
