// Frame conversion, measured: what the station does with every camera frame (luma for
// the document detector, RGB for the display and stills) at 720p and 1080p, from
// YUYV and from MJPEG, against libv4lconvert doing the same in the same run.
//
// The frames are synthetic, made at start: colour bars with a little noise (so the
// JPEG is not trivially small), YUYV packed directly, MJPEG encoded from the same
// RGB with our TurboJPEG codec, 4:2:2 as UVC cameras send it. libv4lconvert has no luma-only destination: its luma
// figure is a conversion to planar YUV 4:2:0, whose first plane is the luma.
//
// Run with `make bench` (release build). Prints a table; it asserts nothing: speed is
// read, not tested. Capture is not measured: the only camera the build machines have is
// vivid in the rig VM, under QEMU TCG, where frame generation itself is emulated.

import Foundation
import Imaging
import KioskTime

struct Size {
    var name: String
    var width: Int
    var height: Int
}

/// Colour bars (white, yellow, cyan, green, magenta, red, blue, black) with noise.
func colourBars(width: Int, height: Int) -> RGBImage {
    let bars: [(UInt8, UInt8, UInt8)] = [
        (235, 235, 235), (235, 235, 16), (16, 235, 235), (16, 235, 16), (235, 16, 235), (235, 16, 16), (16, 16, 235), (16, 16, 16),
    ]
    var generator = SystemRandomNumberGenerator()
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let bar = bars[x * bars.count / width]
            let noise = Int.random(in: -6...6, using: &generator)
            let i = (y * width + x) * 3
            pixels[i] = UInt8(clamping: Int(bar.0) + noise)
            pixels[i + 1] = UInt8(clamping: Int(bar.1) + noise)
            pixels[i + 2] = UInt8(clamping: Int(bar.2) + noise)
        }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
}

/// BT.601 studio-range YUYV of an RGB image: Y0 U Y1 V per pair of pixels.
func yuyv(of image: RGBImage) -> Frame {
    let w = image.width, h = image.height
    var bytes = [UInt8](repeating: 0, count: w * h * 2)
    func y(_ r: Int, _ g: Int, _ b: Int) -> UInt8 { UInt8(clamping: ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16) }
    for row in 0..<h {
        for pair in 0..<(w / 2) {
            let a = image[pair * 2, row], b = image[pair * 2 + 1, row]
            let r = (Int(a.r) + Int(b.r)) / 2, g = (Int(a.g) + Int(b.g)) / 2, bl = (Int(a.b) + Int(b.b)) / 2
            let o = (row * w + pair * 2) * 2
            bytes[o] = y(Int(a.r), Int(a.g), Int(a.b))
            bytes[o + 1] = UInt8(clamping: ((-38 * r - 74 * g + 112 * bl + 128) >> 8) + 128)
            bytes[o + 2] = y(Int(b.r), Int(b.g), Int(b.b))
            bytes[o + 3] = UInt8(clamping: ((112 * r - 94 * g - 18 * bl + 128) >> 8) + 128)
        }
    }
    return Frame(format: .yuyv, width: w, height: h, bytes: bytes)
}

struct Row {
    var input: String
    var output: String
    var implementation: String
    var framesPerSecond: Double
    var cpuMillisecondsPerFrame: Double
}


/// Runs `body` for about `budget` of wall time after a warm-up; frames per second of
/// wall time and CPU time per frame.
func measure(_ budget: Duration = .milliseconds(1500), _ body: () throws -> Void) rethrows -> (fps: Double, cpuMs: Double) {
    for _ in 0..<3 { try body() }
    let clock = ContinuousClock()
    let start = clock.now, cpuStart = ProcessCPUTime.now()
    var frames = 0
    while clock.now - start < budget || frames < 5 {
        try body()
        frames += 1
    }
    let wall = (clock.now - start).inSeconds, cpu = (ProcessCPUTime.now() - cpuStart).inSeconds
    return (Double(frames) / wall, cpu * 1000 / Double(frames))
}

let sizes = [Size(name: "720p", width: 1280, height: 720), Size(name: "1080p", width: 1920, height: 1080)]
let codec = JPEGCodec()
let baseline = try V4LConvert()
var rows: [Row] = []
var luma = LumaImage(), rgb = RGBImage(), buffer: [UInt8] = []

for size in sizes {
    let bars = colourBars(width: size.width, height: size.height)
    let raw = yuyv(of: bars)
    let jpeg = try codec.encode(bars, quality: 85, chroma: .yuv422)
    let mjpeg = Frame(format: .mjpeg, width: size.width, height: size.height, bytes: jpeg)
    for (input, frame) in [("YUYV \(size.name)", raw), ("MJPEG \(size.name) (\(jpeg.count / 1024) KB)", mjpeg)] {
        var m = try measure { try PixelConversion.luma(of: frame, into: &luma, codec: codec) }
        rows.append(Row(input: input, output: "luma", implementation: "idkiosk", framesPerSecond: m.fps, cpuMillisecondsPerFrame: m.cpuMs))
        m = try measure { _ = try baseline.convert(frame, to: .yuv420, into: &buffer) }
        rows.append(Row(input: input, output: "luma", implementation: "libv4lconvert (YUV420)", framesPerSecond: m.fps, cpuMillisecondsPerFrame: m.cpuMs))
        m = try measure { try PixelConversion.rgb(of: frame, into: &rgb, codec: codec) }
        rows.append(Row(input: input, output: "RGB", implementation: "idkiosk", framesPerSecond: m.fps, cpuMillisecondsPerFrame: m.cpuMs))
        m = try measure { _ = try baseline.convert(frame, to: .rgb24, into: &buffer) }
        rows.append(Row(input: input, output: "RGB", implementation: "libv4lconvert", framesPerSecond: m.fps, cpuMillisecondsPerFrame: m.cpuMs))
    }
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func number(_ v: Double) -> String { String(format: "%8.1f", v) }
print("synthetic colour bars with noise; one thread; MJPEG decoded with fastDecode=\(codec.fastDecode)")
print(pad("input", 22) + pad("output", 8) + pad("implementation", 25) + "  frames/s  CPU ms/frame")
for row in rows {
    print(pad(row.input, 22) + pad(row.output, 8) + pad(row.implementation, 25) + "  " + number(row.framesPerSecond) + "  " + number(row.cpuMillisecondsPerFrame))
}
