/// A still image file of a kind told apart by its first bytes: JPEG (FF D8), PNG (its
/// signature), or else JPEG 2000 (a JP2 file or a bare codestream; a chip's portrait).
public enum ImageFile {
    /// The file's pixels as packed RGB, decoded accurately (not the camera's fast path).
    /// - Throws: ``ImagingError`` from the decoder of the kind the bytes look like.
    public static func decodeRGB(_ bytes: [UInt8]) throws(ImagingError) -> RGBImage {
        if PNGCodec.isPNG(bytes) { return try PNGCodec.decodeRGB(bytes) }
        if bytes.starts(with: [0xFF, 0xD8]) {
            var image = RGBImage()
            try JPEGCodec(fastDecode: false).decodeRGB(bytes, into: &image)
            return image
        }
        return try JPEG2000.decodeRGB(bytes)
    }
}
