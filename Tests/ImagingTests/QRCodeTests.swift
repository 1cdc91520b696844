import Foundation
import Imaging
import KioskTestKit
import Testing

/// QR codes drawn with libqrencode, read back by a decoder we did not write: ZBar's
/// `zbarimg` (Debian zbar-tools, which `scripts/setup-debian.sh` installs for CI).
@Suite struct QRCodeTests {
    /// The address of a Digital Identity hand-off as the reference backend writes it.
    static let handoff = "http://127.0.0.1:8480/handoff/Qm9yZ2VzIGFuZCB0aGUgbGFieXJpbnRoIG9mIHRva2Vucw?provider=reference-eid"

    /// Decodes an image with zbarimg; the symbols' texts.
    static func decode(_ image: LumaImage) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pgm").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Netpbm's binary grey format: a header, then the pixels as they are.
        var file = Data("P5\n\(image.width) \(image.height)\n255\n".utf8)
        file.append(contentsOf: image.pixels)
        try file.write(to: URL(fileURLWithPath: path))
        return try ZBar.decodeQR(imageAt: path)
    }

    @Test(.enabled(if: ZBar.isAvailable, Comment(rawValue: ZBar.skipReason)))
    func zbarReadsTheHandoffAddressBack() throws {
        let code = try QRCode(Self.handoff)
        #expect(try Self.decode(code.image(scale: 6)) == [Self.handoff])
        // The smallest drawing a screen would show: two pixels per module still reads.
        #expect(try Self.decode(code.image(scale: 2)) == [Self.handoff])
    }

    @Test(.enabled(if: ZBar.isAvailable, Comment(rawValue: ZBar.skipReason)))
    func zbarReadsEveryErrorCorrectionLevelAndNonASCIIText() throws {
        let text = "Grüße aus der Station – https://example.org/ä?x=1&y=2"
        for level in QRCode.ErrorCorrection.allCases {
            #expect(try Self.decode(QRCode(text, errorCorrection: level).image(scale: 4)) == [text], "\(level)")
        }
    }

    @Test(.enabled(if: ZBar.isAvailable, Comment(rawValue: ZBar.skipReason)))
    func anotherAddressDoesNotReadAsThisOne() throws {
        // The test can fail: a different address reads differently.
        let other = try QRCode(Self.handoff.replacingOccurrences(of: "Qm9y", with: "QmXy"))
        #expect(try Self.decode(other.image(scale: 6)) != [Self.handoff])
    }

    /// Byte-mode capacities of ISO/IEC 18004 table 7 decide the version: at level M a
    /// version 1 holds 14 bytes, 2 holds 26, 4 holds 62, 6 holds 106, 7 holds 122.
    @Test func theVersionIsTheSmallestThatHoldsTheBytes() throws {
        let cases: [(bytes: Int, version: Int)] = [(1, 1), (14, 1), (15, 2), (26, 2), (62, 4), (63, 5), (106, 6), (107, 7)]
        for (bytes, version) in cases {
            let code = try QRCode(String(repeating: "a", count: bytes), errorCorrection: .medium)
            #expect(code.version == version, "\(bytes) bytes")
            #expect(code.size == 17 + 4 * version)
            #expect(code.modules.count == code.size * code.size)
        }
        // Level L holds more: 17 bytes fit version 1 (14 at M do not exceed it either).
        #expect(try QRCode(String(repeating: "a", count: 17), errorCorrection: .low).version == 1)
        #expect(try QRCode(String(repeating: "a", count: 17), errorCorrection: .high).version == 3)
    }

    @Test func theFinderPatternsAndTheQuietZoneAreWhereTheStandardPutsThem() throws {
        let code = try QRCode(Self.handoff)
        // The 7×7 finder in three corners: a dark ring, a light ring, a dark 3×3 core.
        for (cx, cy) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = max(abs(x - 3), abs(y - 3))
                    #expect(code[cx + x, cy + y] == (ring != 2), "finder at \(cx),\(cy): \(x),\(y)")
                }
            }
        }
        // The fourth corner has none: its 7×7 is not the finder.
        #expect((0..<7).contains { x in (0..<7).contains { y in code[code.size - 7 + x, code.size - 7 + y] != (max(abs(x - 3), abs(y - 3)) != 2) } })
        let image = code.image(scale: 3)
        #expect(image.width == (code.size + 8) * 3 && image.height == image.width)
        // Four modules of white all round, then the finder's dark corner.
        #expect((0..<12).allSatisfy { image[$0, $0] == 255 && image[image.width - 1 - $0, $0] == 255 })
        #expect(image[12, 12] == 0)
    }

    @Test func theSVGDrawsTheSameModulesAndNamesItself() throws {
        let code = try QRCode(Self.handoff)
        let svg = code.svg(label: #"Scan "this" <code> & go"#)
        let side = code.size + 2 * QRCode.quietZone
        #expect(svg.contains(#"viewBox="0 0 \#(side) \#(side)""#))
        #expect(svg.contains(#"aria-label="Scan &quot;this&quot; &lt;code&gt; &amp; go""#))
        #expect(svg.contains("<title>Scan &quot;this&quot; &lt;code&gt; &amp; go</title>"))
        #expect(!svg.contains(Self.handoff))
        // The path's runs, read back, are exactly the dark modules.
        let path = try #require(svg.split(separator: #"d=""#).last?.split(separator: "\"").first)
        var dark = Set<Int>()
        for run in path.split(separator: "M") {
            let numbers = run.split(whereSeparator: { !"0123456789".contains($0) }).compactMap { Int($0) }
            let (x, y, length) = (numbers[0] - QRCode.quietZone, numbers[1] - QRCode.quietZone, numbers[2])
            for column in x..<(x + length) { dark.insert(y * code.size + column) }
        }
        #expect(dark == Set(code.modules.indices.filter { code.modules[$0] }))
    }

    @Test func textThatCannotBeAQRCodeIsATypedError() {
        #expect(throws: ImagingError.self) { try QRCode("") }
        #expect(throws: ImagingError.self) { try QRCode("a\u{0}b") }
        do {
            _ = try QRCode(String(repeating: "x", count: 5000))
            Issue.record("5000 bytes do not fit a QR code")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.call == "QRcode_encodeString8bit")
            #expect(error.message.contains("too long"))
        }
    }

    @Test func itPrintsItsSizeNotItsText() throws {
        let code = try QRCode(Self.handoff)
        #expect("\(code)" == "QRCode(version \(code.version), \(code.size)x\(code.size))")
    }
}
