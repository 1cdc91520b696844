import Imaging
import Testing

/// PNG stills through libpng, on images written here byte by byte (stored, uncompressed
/// deflate blocks), so every pixel is known.
@Suite struct PNGCodecTests {
    /// A PNG of `width` x `height` with colour type 2 (RGB) or 0 (grey), 8 bits.
    static func png(width: Int, height: Int, channels: Int, pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width { raw += pixel(x, y) }
        }
        // zlib: header, stored blocks of at most 65535 bytes, Adler-32.
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += bigEndian((b << 16) | a)
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, channels == 3 ? 2 : 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return bigEndian(UInt32(data.count)) + body + bigEndian(~crc)
    }

    @Test func greyAndColourPixelsComeBackExactly() throws {
        let grey = Self.png(width: 5, height: 3, channels: 1) { x, y in [UInt8(x * 50 + y)] }
        #expect(PNGCodec.isPNG(grey))
        let luma = try PNGCodec.decodeLuma(grey)
        #expect(luma.width == 5 && luma.height == 3)
        #expect(luma[4, 2] == 202 && luma[0, 0] == 0)
        let colour = Self.png(width: 4, height: 2, channels: 3) { x, y in [UInt8(x * 60), UInt8(y * 100), 7] }
        let rgb = try PNGCodec.decodeRGB(colour)
        #expect(rgb[3, 1] == (180, 100, 7))
        // Colour to luma: pure grey stays itself.
        let flat = try PNGCodec.decodeLuma(Self.png(width: 2, height: 2, channels: 3) { _, _ in [90, 90, 90] })
        #expect(flat.pixels == [90, 90, 90, 90])
    }

    @Test func notAPNGOrACutOneIsACodecError() {
        #expect(!PNGCodec.isPNG([0xFF, 0xD8, 0xFF]))
        #expect(throws: ImagingError.self) { try PNGCodec.decodeLuma([0xFF, 0xD8, 0xFF, 0xE0]) }
        let whole = Self.png(width: 8, height: 8, channels: 1) { x, _ in [UInt8(x)] }
        #expect(throws: ImagingError.self) { try PNGCodec.decodeRGB(Array(whole.prefix(whole.count - 30))) }
        #expect(throws: ImagingError.self) { try PNGCodec.decodeLuma([]) }
    }
}

@Suite struct ImageFileTests {
    @Test("JPEG, PNG and JPEG 2000 are told apart by their first bytes; anything else is a JPEG 2000 error")
    func kinds() throws {
        var image = RGBImage(width: 128, height: 96)
        for i in image.pixels.indices { image.pixels[i] = UInt8(i % 251) }
        let jpeg = try JPEGCodec().encode(image, quality: 95)
        let jp2 = try JPEG2000.encode(image, ratio: 5)
        for bytes in [jpeg, jp2] {
            let decoded = try ImageFile.decodeRGB(bytes)
            #expect(decoded.width == 128 && decoded.height == 96)
        }
        #expect(throws: ImagingError.self) { try ImageFile.decodeRGB([1, 2, 3, 4]) }
        #expect(throws: ImagingError.self) { try ImageFile.decodeRGB([0xFF, 0xD8, 0xFF, 0xE0, 0, 1]) }
    }
}
