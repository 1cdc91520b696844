import Imaging
import Testing

@Suite("Pixel conversion")
struct PixelConversionTests {
    // Y U Y V for 4x2 pixels: white, black | red (BT.601 limited: Y81 U90 V240) twice;
    // second row: grey 128 with neutral chroma.
    let yuyv4x2: [UInt8] = [
        235, 128, 16, 128, 81, 90, 81, 240,
        128, 128, 128, 128, 128, 128, 128, 128,
    ]

    @Test func yuyvToLuma() throws {
        let frame = Frame(format: .yuyv, width: 4, height: 2, bytes: yuyv4x2)
        var luma = LumaImage()
        try PixelConversion.luma(of: frame, into: &luma)
        #expect(luma.pixels == [235, 16, 81, 81, 128, 128, 128, 128])
    }

    @Test func yuyvToRGB() throws {
        let frame = Frame(format: .yuyv, width: 4, height: 2, bytes: yuyv4x2)
        var rgb = RGBImage()
        try PixelConversion.rgb(of: frame, into: &rgb)
        #expect(rgb[0, 0] == (255, 255, 255))
        #expect(rgb[1, 0] == (0, 0, 0))
        let red = rgb[2, 0]
        #expect(red.r >= 254 && red.g <= 1 && red.b <= 1)
        #expect(rgb[3, 1] == (130, 130, 130))
    }

    @Test func uyvyMatchesYUYV() throws {
        var uyvy = yuyv4x2
        for i in stride(from: 0, to: uyvy.count, by: 2) { uyvy.swapAt(i, i + 1) }
        var a = RGBImage(), b = RGBImage()
        try PixelConversion.rgb(of: Frame(format: .yuyv, width: 4, height: 2, bytes: yuyv4x2), into: &a)
        try PixelConversion.rgb(of: Frame(format: .uyvy, width: 4, height: 2, bytes: uyvy), into: &b)
        #expect(a == b)
    }

    @Test func nv12ToLumaAndRGB() throws {
        // 2x2 luma, one chroma pair (U=90, V=240): all four pixels reddish.
        let frame = Frame(format: .nv12, width: 2, height: 2, bytes: [81, 81, 81, 81, 90, 240])
        var luma = LumaImage(), rgb = RGBImage()
        try PixelConversion.luma(of: frame, into: &luma)
        try PixelConversion.rgb(of: frame, into: &rgb)
        #expect(luma.pixels == [81, 81, 81, 81])
        for y in 0..<2 { for x in 0..<2 { #expect(rgb[x, y].r >= 254 && rgb[x, y].g <= 1) } }
    }

    @Test func i420ToRGB() throws {
        // 2x2: Y plane, then U, then V.
        let frame = Frame(format: .i420, width: 2, height: 2, bytes: [235, 16, 235, 16, 128, 128])
        var rgb = RGBImage()
        try PixelConversion.rgb(of: frame, into: &rgb)
        #expect(rgb[0, 0] == (255, 255, 255))
        #expect(rgb[1, 1] == (0, 0, 0))
    }

    @Test func greyWithPaddedLines() throws {
        // 3 pixels wide, 4 bytes per line: the padding byte (99) must not leak in.
        let frame = Frame(format: .grey, width: 3, height: 2, bytesPerLine: 4, bytes: [1, 2, 3, 99, 4, 5, 6, 99])
        var luma = LumaImage(), rgb = RGBImage()
        try PixelConversion.luma(of: frame, into: &luma)
        try PixelConversion.rgb(of: frame, into: &rgb)
        #expect(luma.pixels == [1, 2, 3, 4, 5, 6])
        #expect(rgb[2, 1] == (6, 6, 6))
    }

    @Test func rgb24ToLuma() throws {
        let frame = Frame(format: .rgb24, width: 2, height: 1, bytes: [255, 255, 255, 0, 0, 0])
        var luma = LumaImage()
        try PixelConversion.luma(of: frame, into: &luma)
        #expect(luma.pixels == [235, 16])
    }

    @Test func storageIsReusedForFramesOfTheSameSize() throws {
        var luma = LumaImage()
        try PixelConversion.luma(of: Frame(format: .yuyv, width: 4, height: 2, bytes: yuyv4x2), into: &luma)
        let first = luma.pixels.withUnsafeBufferPointer { $0.baseAddress }
        try PixelConversion.luma(of: Frame(format: .yuyv, width: 4, height: 2, bytes: yuyv4x2), into: &luma)
        let second = luma.pixels.withUnsafeBufferPointer { $0.baseAddress }
        #expect(first == second)
    }

    @Test func shortFramesAndCompressedFormatsAreRejected() {
        var luma = LumaImage()
        #expect(throws: ImagingError.self) {
            try PixelConversion.luma(of: Frame(format: .yuyv, width: 4, height: 2, bytes: [1, 2, 3]), into: &luma)
        }
        do {
            try PixelConversion.luma(of: Frame(format: .mjpeg, width: 4, height: 2, bytes: [0xFF, 0xD8]), into: &luma)
            Issue.record("MJPEG converted without decoding")
        } catch {
            #expect(error.kind == .unsupportedFormat)
        }
    }
}
