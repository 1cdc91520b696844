/// An 8-bit RGB image (R, G, B per pixel); the pixel store is reused across frames.
public struct RGBImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// Row-major, `3 * width` bytes per row.
    public var pixels: [UInt8]

    public init(width: Int = 0, height: Int = 0, pixels: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.pixels = pixels ?? [UInt8](repeating: 0, count: width * height * 3)
    }

    mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        let n = width * height * 3
        if pixels.count > n { pixels.removeLast(pixels.count - n) }
        if pixels.count < n { pixels.append(contentsOf: repeatElement(0, count: n - pixels.count)) }
    }

    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
