import Foundation
import Imaging
import Testing

@Suite("Pixel formats")
struct PixelFormatTests {
    @Test func fourccNames() {
        #expect(PixelFormat.yuyv.fourcc == "YUYV")
        #expect(PixelFormat.mjpeg.fourcc == "MJPG")
        #expect(PixelFormat.nv12.fourcc == "NV12")
        #expect(PixelFormat.grey.fourcc == "GREY")
    }

    @Test func codesAreTheFourCharactersLittleEndian() {
        // v4l2_fourcc('Y', 'U', 'Y', 'V'): the first character in the lowest byte.
        #expect(PixelFormat.yuyv.rawValue == 0x5659_5559)
        #expect(PixelFormat.i420.fourcc == "YU12")
        #expect(PixelFormat.rgb24.fourcc == "RGB3")
    }

    @Test func codableAsItsFourCharacters() throws {
        let json = try JSONEncoder().encode([PixelFormat.nv12, .mjpeg])
        #expect(String(decoding: json, as: UTF8.self) == #"["NV12","MJPG"]"#)
        #expect(try JSONDecoder().decode([PixelFormat].self, from: json) == [.nv12, .mjpeg])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([PixelFormat].self, from: Data(#"["YUV"]"#.utf8)) }
    }
}
