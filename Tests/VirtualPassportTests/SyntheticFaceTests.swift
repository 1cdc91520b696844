import Imaging
import KioskTestKit
import MRTD
import Testing
import VirtualPassport

/// The face of the test passports is a real picture: a JPEG (and a JPEG 2000 file) that
/// decodes to 480 x 640 with a face's structure, at a real portrait's size.
@Suite struct SyntheticFaceTests {
    @Test func jpegIsARealPortraitOfRealisticSize() throws {
        let jpeg = try SyntheticFace.jpeg()
        #expect((15_000...30_000).contains(jpeg.count), "\(jpeg.count) bytes")
        let codec = JPEGCodec(fastDecode: false)
        #expect(try codec.size(of: jpeg) == (480, 640))
        var decoded = RGBImage()
        try codec.decodeRGB(jpeg, into: &decoded)
        // The drawing survives: skin at the cheek, dark pupils, pale background, dark clothes.
        func near(_ x: Int, _ y: Int, _ rgb: (Int, Int, Int), within tolerance: Int) -> Bool {
            let p = decoded[x, y]
            return abs(Int(p.r) - rgb.0) <= tolerance && abs(Int(p.g) - rgb.1) <= tolerance && abs(Int(p.b) - rgb.2) <= tolerance
        }
        let cheek = decoded[200, 380]
        #expect(cheek.r > cheek.g && cheek.g > cheek.b && cheek.r > 150)
        #expect(near(194, 292, (20, 16, 14), within: 40))  // left pupil
        #expect(near(20, 20, (204, 212, 222), within: 20))  // background
        #expect(near(240, 630, (45, 57, 92), within: 30))  // clothes
        // Deterministic: the same bytes every time.
        #expect(try JPEGCodec().encode(SyntheticFace.picture(), quality: SyntheticFace.quality) == jpeg)
    }

    @Test func jpeg2000VersionDecodesToTheSamePicture() throws {
        let jp2 = try SyntheticFace.jpeg2000()
        #expect((10_000...40_000).contains(jp2.count), "\(jp2.count) bytes")
        #expect(JPEG2000.Format(sniffing: jp2) == .jp2)
        let decoded = try JPEG2000.decodeRGB(jp2)
        #expect(decoded.width == 480 && decoded.height == 640)
        let original = SyntheticFace.picture()
        let difference = zip(decoded.pixels, original.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(original.pixels.count) < 8)
    }

    /// By default the data set's DG2 carries the real JPEG; a reader gets it back whole in
    /// both record formats.
    @Test(arguments: [FaceRecordFormat.iso19794, .iso39794], [FaceImage.Encoding.jpeg, .jpeg2000])
    func readerReturnsTheFace(format: FaceRecordFormat, encoding: FaceImage.Encoding) async throws {
        let dataSet = try PassportDataSet.make(faceEncoding: encoding, faceFormat: format, signSecurityObject: { _ in [0x77, 0x00] })
        let passport = VirtualPassport(key: try dataSet.key(), files: dataSet.files)
        let contents = try await ChipReader(transport: InMemoryTransport(passport), key: try dataSet.key()).read()
        let face = try #require(try contents.dataGroup2()?.faces.first)
        #expect(face.recordFormat == format && face.encoding == encoding)
        #expect(face.imageData == (encoding == .jpeg ? try SyntheticFace.jpeg() : try SyntheticFace.jpeg2000()))
        #expect(face.width == 480 && face.height == 640)
    }
}
