/// An 8-bit single-channel image; the pixel store is reused across frames.
public struct LumaImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// Row-major, `width` bytes per row.
    public var pixels: [UInt8]

    public init(width: Int = 0, height: Int = 0, pixels: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.pixels = pixels ?? [UInt8](repeating: 0, count: width * height)
    }

    /// Sets the size, reallocating only when it grows.
    mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        if pixels.count != width * height {
            if pixels.count > width * height {
                pixels.removeLast(pixels.count - width * height)
            } else {
                pixels.append(contentsOf: repeatElement(0, count: width * height - pixels.count))
            }
        }
    }

    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// The image turned by 180 degrees (its pixels in reverse order).
    public var turned: LumaImage {
        var pixels = pixels
        pixels.reverse()
        return LumaImage(width: width, height: height, pixels: pixels)
    }
}

extension LumaImage {
    /// The luma of an RGB image (BT.601, as the camera's YUV frames carry it).
    public init(_ rgb: RGBImage) {
        var pixels = [UInt8](repeating: 0, count: rgb.width * rgb.height)
        rgb.pixels.withUnsafeBufferPointer { p in
            pixels.withUnsafeMutableBufferPointer { out in
                for i in out.indices { out[i] = PixelConversion.lumaFromRGB(p[3 * i], p[3 * i + 1], p[3 * i + 2]) }
            }
        }
        self.init(width: rgb.width, height: rgb.height, pixels: pixels)
    }
}
