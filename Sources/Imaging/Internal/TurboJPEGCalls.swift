import CTurboJPEG

// Every TurboJPEG function is called from exactly one function here; failures carry
// the function's name and TurboJPEG's own message.

enum TurboJPEG {
    static func initDecompress() -> ImagingResult<tjhandle> {
        guard let h = tjInitDecompress() else { return .failure(error("tjInitDecompress", nil)) }
        return .success(h)
    }

    static func initCompress() -> ImagingResult<tjhandle> {
        guard let h = tjInitCompress() else { return .failure(error("tjInitCompress", nil)) }
        return .success(h)
    }

    static func destroy(_ handle: tjhandle) {
        _ = tjDestroy(handle)
    }

    /// Width, height and chroma subsampling of a JPEG image.
    static func header(_ handle: tjhandle, _ jpeg: UnsafeRawBufferPointer) -> ImagingResult<(width: Int, height: Int, subsampling: Int32)> {
        var w: Int32 = 0, h: Int32 = 0, sub: Int32 = 0, colorspace: Int32 = 0
        let rc = tjDecompressHeader3(handle, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), &w, &h, &sub, &colorspace)
        if rc != 0 { return .failure(error("tjDecompressHeader3", handle)) }
        // A truncated stream can "succeed" with no frame header read: no size, no image.
        guard w > 0, h > 0 else {
            return .failure(ImagingError(kind: .codec, call: "tjDecompressHeader3", message: "the JPEG data has no image header"))
        }
        return .success((Int(w), Int(h), sub))
    }

    /// Decodes into `destination` (`pitch` bytes per row). Warnings (a damaged but
    /// decodable image, common with USB MJPEG) count as success.
    static func decompress(
        _ handle: tjhandle, _ jpeg: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer,
        width: Int, pitch: Int, height: Int, pixelFormat: TJPF, flags: Int32
    ) -> ImagingResult<Void> {
        let rc = tjDecompress2(
            handle, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
            destination.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(pitch), Int32(height),
            pixelFormat.rawValue, flags)
        if rc != 0 && tjGetErrorCode(handle) != TJERR_WARNING.rawValue { return .failure(error("tjDecompress2", handle)) }
        return .success(())
    }

    /// Encodes into a buffer TurboJPEG allocates; the bytes are copied out and the buffer freed.
    static func compress(
        _ handle: tjhandle, _ source: UnsafeRawBufferPointer, width: Int, pitch: Int, height: Int, pixelFormat: TJPF,
        subsampling: TJSAMP, quality: Int32, flags: Int32
    ) -> ImagingResult<[UInt8]> {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let rc = tjCompress2(
            handle, source.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(pitch), Int32(height),
            pixelFormat.rawValue, &out, &size, Int32(subsampling.rawValue), quality, flags)
        defer { if let out { tjFree(out) } }
        if rc != 0 { return .failure(error("tjCompress2", handle)) }
        guard let out else { return .failure(error("tjCompress2", handle)) }
        return .success(Array(UnsafeBufferPointer(start: out, count: Int(size))))
    }

    private static func error(_ call: String, _ handle: tjhandle?) -> ImagingError {
        let text = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown TurboJPEG error"
        return ImagingError(kind: .codec, call: call, message: text)
    }
}
