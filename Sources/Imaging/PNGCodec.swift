/// Reading PNG stills (libpng): test scenes, backgrounds and a technician's screenshots.
public enum PNGCodec {
    /// Whether `data` starts with the PNG signature.
    public static func isPNG(_ data: [UInt8]) -> Bool {
        data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// Decodes a PNG image to 8-bit luma (colour is converted, alpha composed on black).
    public static func decodeLuma(_ data: [UInt8]) throws(ImagingError) -> LumaImage {
        let decoded = try PNGCalls.decode(data, channels: 1).get()
        return LumaImage(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
    }

    /// Decodes a PNG image to packed RGB.
    public static func decodeRGB(_ data: [UInt8]) throws(ImagingError) -> RGBImage {
        let decoded = try PNGCalls.decode(data, channels: 3).get()
        return RGBImage(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
    }
}
