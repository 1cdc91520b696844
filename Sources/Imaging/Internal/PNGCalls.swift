import CPNG

/// The one place that calls libpng (its simplified `png_image_*` API).
enum PNGCalls {
    /// Decodes `data` to `channels` (1: luma, 3: RGB) 8-bit samples.
    static func decode(_ data: [UInt8], channels: Int) -> ImagingResult<(width: Int, height: Int, pixels: [UInt8])> {
        var image = png_image()
        image.version = cpng_image_version()
        let begun = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { return .failure(failure(&image, call: "png_image_begin_read_from_memory")) }
        image.format = channels == 1 ? cpng_format_gray() : cpng_format_rgb()
        let (width, height) = (Int(image.width), Int(image.height))
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            png_image_free(&image)
            return .failure(ImagingError(kind: .unsupportedFormat, call: "png_image_begin_read_from_memory", message: "PNG of \(width)x\(height) pixels"))
        }
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * channels), nil) }
        guard finished != 0, cpng_failed(&image) == 0 else { return .failure(failure(&image, call: "png_image_finish_read")) }
        return .success((width, height, pixels))
    }

    private static func failure(_ image: inout png_image, call: String) -> ImagingError {
        let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        png_image_free(&image)
        return ImagingError(kind: .codec, call: call, message: message.isEmpty ? "not a PNG image" : "PNG: \(message)")
    }
}
