import Imaging
import Testing

@Suite("JPEG (TurboJPEG)")
struct JPEGTests {
    /// A smooth 64x48 test card: JPEG keeps gradients nearly exactly.
    static func card(width: Int = 64, height: Int = 48) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8((x + y) * 255 / (width + height - 2))]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    static func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    @Test func rgbRoundTrip() throws {
        let codec = JPEGCodec(fastDecode: false)
        let card = Self.card()
        let jpeg = try codec.encode(card, quality: 95)
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        #expect(jpeg.suffix(2) == [0xFF, 0xD9])
        #expect(try codec.size(of: jpeg) == (64, 48))
        var decoded = RGBImage()
        try codec.decodeRGB(jpeg, into: &decoded)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(Self.meanAbsoluteDifference(decoded.pixels, card.pixels) < 3)
    }

    @Test func lumaRoundTripAndDecodingToLuma() throws {
        let codec = JPEGCodec()
        let luma = LumaImage(width: 32, height: 16, pixels: (0..<(32 * 16)).map { UInt8(($0 % 32) * 8) })
        let jpeg = try codec.encode(luma, quality: 95)
        var back = LumaImage()
        try codec.decodeLuma(jpeg, into: &back)
        #expect(Self.meanAbsoluteDifference(back.pixels, luma.pixels) < 3)

        // A colour JPEG decoded to luma agrees with the luma of its RGB decode.
        let colour = try codec.encode(Self.card(), quality: 95)
        var fromJPEG = LumaImage(), rgb = RGBImage(), viaRGB = LumaImage()
        try PixelConversion.luma(of: Frame(format: .mjpeg, width: 64, height: 48, bytes: colour), into: &fromJPEG, codec: codec)
        try codec.decodeRGB(colour, into: &rgb)
        try PixelConversion.luma(of: Frame(format: .rgb24, width: 64, height: 48, bytes: rgb.pixels), into: &viaRGB)
        // JPEG luma is full range, BT.601 limited range is 16...235: compare after scaling.
        let scaled = fromJPEG.pixels.map { UInt8(16 + (Int($0) * 219 + 127) / 255) }
        #expect(Self.meanAbsoluteDifference(scaled, viaRGB.pixels) < 2)
    }

    @Test func corruptDataIsACodecError() {
        let codec = JPEGCodec()
        var image = RGBImage()
        do {
            try codec.decodeRGB([0xFF, 0xD8, 0x00, 0x01, 0x02], into: &image)
            Issue.record("decoded garbage")
        } catch {
            #expect(error.kind == .codec)
            #expect(error.call == "tjDecompressHeader3")
        }
    }

    @Test func truncatedImagesAreDecodedOrRejectedButNeverCrash() throws {
        let codec = JPEGCodec()
        let jpeg = try codec.encode(Self.card(), quality: 80)
        var image = RGBImage()
        // Cut inside the entropy-coded data: libjpeg-turbo warns and fills the rest grey.
        #expect(jpeg.count > 800)
        try codec.decodeRGB(Array(jpeg.prefix(jpeg.count - 200)), into: &image)
        #expect(image.width == 64)
        // Cut inside the headers: no image.
        #expect(throws: ImagingError.self) { try codec.decodeRGB(Array(jpeg.prefix(40)), into: &image) }
    }

    /// Found by `make fuzz` (docs/fuzzing.md): a 944-byte JPEG whose frame header declared
    /// 28276 x 21833 was "decoded" as grey in two minutes and 620 MB. A header above
    /// `maximumPixels` is refused before anything is allocated; one at it still decodes.
    @Test func anImageAboveTheLargestIsRefusedByItsHeader() throws {
        let codec = JPEGCodec()
        let card = try codec.encode(Self.card(), quality: 80)
        let huge = Self.declaring(width: 28276, height: 21833, card)
        var rgb = RGBImage(), luma = LumaImage()
        let error = #expect(throws: ImagingError.self) { try codec.decodeLuma(huge, into: &luma) }
        #expect(error?.kind == .unsupportedFormat)
        #expect(throws: ImagingError.self) { try codec.decodeRGB(huge, into: &rgb) }
        #expect(luma.pixels.isEmpty && rgb.pixels.isEmpty)
        #expect(try codec.size(of: huge) == (28276, 21833))
        try codec.decodeLuma(Self.declaring(width: 4096, height: 4096, card), into: &luma)
        #expect(luma.width * luma.height == JPEGCodec.maximumPixels)
    }

    /// `jpeg` with its baseline frame header (SOF0) declaring another size.
    static func declaring(width: Int, height: Int, _ jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        guard let sof = (0..<bytes.count - 1).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else { return bytes }
        // FF C0, length (2), precision (1), then height and width (2 each, big-endian).
        bytes.replaceSubrange(sof + 5...sof + 8, with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return bytes
    }

    /// One corrupt frame in a stream: the next good frames decode with the same codec (the
    /// camera's codec lives as long as the capture). TurboJPEG 2.1 left the handle failing
    /// every frame after it with the first error.
    @Test func aCorruptFrameDoesNotBreakTheFramesAfterIt() throws {
        let codec = JPEGCodec()
        let good = try codec.encode(Self.card(), quality: 80)
        // The headers of a good frame, then noise where its scan should be.
        let corrupt = Array(good.prefix(300)) + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) } + [0xFF, 0xD9]
        var rgb = RGBImage(), luma = LumaImage()
        try codec.decodeRGB(good, into: &rgb)
        #expect(throws: ImagingError.self) { try codec.decodeRGB(corrupt, into: &rgb) }
        for _ in 0..<3 {
            try codec.decodeRGB(good, into: &rgb)
            try codec.decodeLuma(good, into: &luma)
            #expect(try codec.size(of: good) == (64, 48))
        }
        #expect(throws: ImagingError.self) { try codec.decodeLuma(corrupt, into: &luma) }
        try codec.decodeLuma(good, into: &luma)
        #expect(luma.width == 64)
    }
}
