/// What a pixel format's frames occupy; shared with `Camera`, which sizes V4L2 buffers by it.
extension PixelFormat {
    /// Bytes per line of the first plane when lines are packed without padding.
    package static func packedBytesPerLine(_ format: PixelFormat, width: Int) -> Int {
        switch format {
        case .yuyv, .uyvy: return width * 2
        case .rgb24: return width * 3
        case .nv12, .i420, .grey: return width
        default: return 0
        }
    }

    /// The smallest buffer that holds a frame of this format, or nil for compressed formats.
    package static func minimumFrameBytes(_ format: PixelFormat, bytesPerLine: Int, height: Int) -> Int? {
        switch format {
        case .yuyv, .uyvy, .rgb24, .grey: return bytesPerLine * height
        case .nv12, .i420: return bytesPerLine * height + bytesPerLine * ((height + 1) / 2)
        default: return nil
        }
    }
}
