import Imaging
import Testing

/// JPEG 2000 through OpenJPEG: images encoded at test time with libopenjp2 decode back to
/// RGB close to the original and convert to JPEG; malformed input is a typed error.
@Suite("JPEG 2000 (OpenJPEG)")
struct JPEG2000Tests {
    /// A 120x90 picture with gradients and a dark disc: something for the wavelet to keep.
    static func picture(width: Int = 120, height: Int = 90) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let dx = x - width / 2, dy = y - height / 2
                let inside = dx * dx + dy * dy < 400
                pixels += inside ? [30, 40, 50] : [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), 128]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [JPEG2000.Format.jp2, .codestream]) func roundTrip(format: JPEG2000.Format) throws {
        let picture = Self.picture()
        let encoded = try JPEG2000.encode(picture, format: format, ratio: 8)
        #expect(JPEG2000.Format(sniffing: encoded) == format)
        #expect(encoded.count < picture.pixels.count / 4)
        let decoded = try JPEG2000.decodeRGB(encoded)
        #expect(decoded.width == 120 && decoded.height == 90)
        #expect(JPEGTests.meanAbsoluteDifference(decoded.pixels, picture.pixels) < 4)
    }

    @Test func convertsToJPEG() throws {
        let picture = Self.picture()
        let jpeg = try JPEG2000.toJPEG(JPEG2000.encode(picture, format: .jp2, ratio: 10), quality: 92)
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        let codec = JPEGCodec(fastDecode: false)
        #expect(try codec.size(of: jpeg) == (120, 90))
        var decoded = RGBImage()
        try codec.decodeRGB(jpeg, into: &decoded)
        #expect(JPEGTests.meanAbsoluteDifference(decoded.pixels, picture.pixels) < 6)
    }

    @Test func malformedInputIsATypedError() throws {
        let valid = try JPEG2000.encode(Self.picture(), format: .codestream, ratio: 8)
        // Not JPEG 2000 at all.
        let notJ2K = try #require(#expect(throws: ImagingError.self) { try JPEG2000.decodeRGB([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) })
        #expect(notJ2K.kind == .codec)
        // The signature, then garbage; a truncated codestream; a header whose body is overwritten.
        var garbage: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51]
        var state: UInt32 = 7
        for _ in 0..<500 {
            state = state &* 1_103_515_245 &+ 12345
            garbage.append(UInt8(truncatingIfNeeded: state >> 16))
        }
        #expect(throws: ImagingError.self) { try JPEG2000.decodeRGB(garbage) }
        #expect(throws: ImagingError.self) { try JPEG2000.decodeRGB(Array(valid.prefix(valid.count / 3))) }
        #expect(throws: ImagingError.self) { try JPEG2000.decodeRGB(Array(valid.prefix(60))) }
        var scrambled = valid
        for i in stride(from: 40, to: scrambled.count, by: 7) { scrambled[i] ^= 0x5A }
        // A scrambled body may still decode to some picture; it must never trap.
        _ = try? JPEG2000.decodeRGB(scrambled)
    }

    /// Seeded mutations of valid JP2 and J2K files (bytes flipped, runs zeroed, truncation):
    /// each decodes to some picture or throws, never traps.
    @Test(arguments: [JPEG2000.Format.jp2, .codestream]) func mutatedFilesNeverTrap(format: JPEG2000.Format) throws {
        let valid = try JPEG2000.encode(Self.picture(width: 48, height: 40), format: format, ratio: 6)
        var state: UInt64 = format == .jp2 ? 0x2000 : 0x2001
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        var decoded = 0, refused = 0
        for _ in 0..<300 {
            var bytes = valid
            switch next(3) {
            case 0:
                for _ in 0...next(8) { bytes[next(bytes.count)] ^= UInt8(1 + next(255)) }
            case 1:
                let start = next(bytes.count)
                for i in start..<min(bytes.count, start + 1 + next(16)) { bytes[i] = 0 }
            default:
                bytes = Array(bytes.prefix(12 + next(bytes.count - 12)))
            }
            do {
                let image = try JPEG2000.decodeRGB(bytes)
                #expect(image.pixels.count == image.width * image.height * 3)
                decoded += 1
            } catch {
                refused += 1
            }
        }
        #expect(decoded + refused == 300)
        #expect(refused > 0)
    }
}
