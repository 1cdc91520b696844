extension PixelConversion {
    /// Luma of any frame this module reads: raw formats converted, MJPEG decoded by `codec`.
    public static func luma(of frame: Frame, into image: inout LumaImage, codec: JPEGCodec) throws(ImagingError) {
        if frame.format.isCompressed {
            try codec.decodeLuma(frame.bytes, into: &image)
        } else {
            try luma(of: frame, into: &image)
        }
    }

    /// RGB of any frame this module reads: raw formats converted, MJPEG decoded by `codec`.
    public static func rgb(of frame: Frame, into image: inout RGBImage, codec: JPEGCodec) throws(ImagingError) {
        if frame.format.isCompressed {
            try codec.decodeRGB(frame.bytes, into: &image)
        } else {
            try rgb(of: frame, into: &image)
        }
    }
}
