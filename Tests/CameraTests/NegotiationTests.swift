import Camera
import Imaging
import Testing

private func modes(_ format: PixelFormat, _ sizes: [(Int, Int, [UInt32])]) -> [CaptureMode] {
    sizes.flatMap { w, h, rates in rates.map { CaptureMode(format: format, width: w, height: h, interval: FrameInterval(fps: $0)) } }
}

/// What a Logitech C920 lists: raw YUYV is slow at large sizes, MJPEG is fast.
private let c920 =
    modes(.yuyv, [(640, 480, [30, 15]), (1280, 720, [10, 5]), (1920, 1080, [5]), (2304, 1536, [2])])
    + modes(.mjpeg, [(640, 480, [30]), (1280, 720, [30, 15]), (1920, 1080, [30, 15])])

/// vivid's webcam input: raw formats only, fps falling with size.
private let vividLike =
    modes(.yuyv, [(320, 180, [50, 25]), (640, 360, [50, 25]), (1280, 720, [25, 12]), (1920, 1080, [12])])
    + modes(.nv12, [(1280, 720, [25]), (1920, 1080, [12])])
    + modes(PixelFormat(rawValue: 0x3231_5659), [(3840, 2160, [60])])  // a format we cannot decode

@Suite("Mode negotiation")
struct NegotiationTests {
    @Test func documentTakesTheLargestSizeAtTenFPS() {
        // YUYV 2304x1536 is larger but only 2 fps; MJPEG 1080p reaches 10 fps.
        let mode = negotiateMode(c920, for: .document)
        #expect(mode?.format == .mjpeg)
        #expect(mode?.width == 1920 && mode?.height == 1080)
        // The slowest rate that still meets the minimum: 15 fps gives longer exposure than 30.
        #expect(mode?.interval == FrameInterval(fps: 15))
    }

    @Test func documentPrefersRawAtEqualSize() {
        let mode = negotiateMode(vividLike, for: .document)
        #expect(mode == CaptureMode(format: .yuyv, width: 1920, height: 1080, interval: FrameInterval(fps: 12)))
    }

    @Test func previewAndFaceTake720pAt25FPSOrMore() {
        for purpose in [CapturePurpose.preview, .face] {
            #expect(negotiateMode(c920, for: purpose) == CaptureMode(format: .mjpeg, width: 1280, height: 720, interval: FrameInterval(fps: 30)))
            #expect(negotiateMode(vividLike, for: purpose) == CaptureMode(format: .yuyv, width: 1280, height: 720, interval: FrameInterval(fps: 25)))
        }
    }

    @Test func previewTakesTheSmallestSizeAbove720pWhen720pIsMissing() {
        let list = modes(.yuyv, [(640, 480, [30]), (1600, 900, [30]), (1920, 1080, [30])])
        #expect(negotiateMode(list, for: .preview)?.width == 1600)
    }

    @Test func previewTakesTheLargestSizeBelow720pWhenNothingLargerIsFastEnough() {
        let list = modes(.yuyv, [(640, 480, [30]), (800, 600, [30]), (1280, 720, [10])])
        #expect(negotiateMode(list, for: .preview)?.width == 800)
    }

    @Test func fallsBackToTheFastestModesWhenNoneIsFastEnough() {
        let list = modes(.yuyv, [(640, 480, [8]), (1920, 1080, [2])])
        #expect(negotiateMode(list, for: .document) == CaptureMode(format: .yuyv, width: 640, height: 480, interval: FrameInterval(fps: 8)))
    }

    @Test func nothingDecodableGivesNil() {
        #expect(negotiateMode(modes(PixelFormat(rawValue: 0x3231_5659), [(640, 480, [30])]), for: .preview) == nil)
        #expect(negotiateMode([], for: .document) == nil)
    }

    @Test func fractionalRatesCount() {
        // 30000/1001 (29.97) is "30 fps" for every purpose.
        let ntsc = CaptureMode(format: .yuyv, width: 1280, height: 720, interval: FrameInterval(numerator: 1001, denominator: 30000))
        #expect(negotiateMode([ntsc], for: .face) == ntsc)
        #expect(ntsc.framesPerSecond > 29.9)
    }
}
