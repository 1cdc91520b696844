import COpenJPEG

// Every OpenJPEG function is called from exactly one function here. OpenJPEG reports
// failure as false or NULL without a message; the wrappers name the call.

/// The bytes a stream reads from, or collects when writing; OpenJPEG's user data.
final class OpenJPEGMemory {
    var bytes: [UInt8]
    var offset = 0
    /// Whether the stream reads `bytes` (else it collects what is written).
    let reading: Bool
    init(_ bytes: [UInt8], reading: Bool) {
        self.bytes = bytes
        self.reading = reading
    }
}

enum OpenJPEG {
    /// `opj_codec_t *` and `opj_stream_t *` (both `void **` in C).
    typealias Codec = UnsafeMutablePointer<opj_codec_t?>
    typealias Stream = UnsafeMutablePointer<opj_stream_t?>

    static func failure(_ call: String, _ message: String) -> ImagingError {
        ImagingError(kind: .codec, call: call, message: message)
    }

    static func createDecompress(_ format: OPJ_CODEC_FORMAT) -> ImagingResult<Codec> {
        guard let codec = opj_create_decompress(format) else { return .failure(failure("opj_create_decompress", "no decoder")) }
        return .success(codec)
    }

    static func createCompress(_ format: OPJ_CODEC_FORMAT) -> ImagingResult<Codec> {
        guard let codec = opj_create_compress(format) else { return .failure(failure("opj_create_compress", "no encoder")) }
        return .success(codec)
    }

    static func destroyCodec(_ codec: Codec) {
        opj_destroy_codec(codec)
    }

    static func setupDecoder(_ codec: Codec) -> ImagingResult<Void> {
        var parameters = opj_dparameters_t()
        opj_set_default_decoder_parameters(&parameters)
        guard setupDecoderCall(codec, &parameters) else { return .failure(failure("opj_setup_decoder", "decoder set-up failed")) }
        return .success(())
    }

    private static func setupDecoderCall(_ codec: Codec, _ parameters: inout opj_dparameters_t) -> Bool {
        opj_setup_decoder(codec, &parameters) != 0
    }

    /// Lossy encoder parameters: irreversible 9-7 wavelet, one layer at `ratio`:1, colour transform for RGB.
    static func setupEncoder(_ codec: Codec, image: UnsafeMutablePointer<opj_image_t>, ratio: Float) -> ImagingResult<Void> {
        var parameters = opj_cparameters_t()
        opj_set_default_encoder_parameters(&parameters)
        parameters.tcp_numlayers = 1
        parameters.cp_disto_alloc = 1
        withUnsafeMutableBytes(of: &parameters.tcp_rates) { $0.storeBytes(of: ratio, as: Float.self) }
        parameters.irreversible = 1
        parameters.tcp_mct = image.pointee.numcomps >= 3 ? 1 : 0
        guard setupEncoderCall(codec, &parameters, image) else { return .failure(failure("opj_setup_encoder", "encoder set-up failed")) }
        return .success(())
    }

    private static func setupEncoderCall(_ codec: Codec, _ parameters: inout opj_cparameters_t, _ image: UnsafeMutablePointer<opj_image_t>) -> Bool {
        opj_setup_encoder(codec, &parameters, image) != 0
    }

    /// A stream over `memory` (reading when `input`), which retains it until the stream is destroyed.
    static func stream(_ memory: OpenJPEGMemory, input: Bool) -> ImagingResult<Stream> {
        guard let stream = opj_stream_create(64 * 1024, input ? 1 : 0) else { return .failure(failure("opj_stream_create", "no stream")) }
        setUserData(stream, memory)
        if input {
            setReadFunction(stream)
            setUserDataLength(stream, memory.bytes.count)
        } else {
            setWriteFunction(stream)
        }
        setSkipFunction(stream)
        setSeekFunction(stream)
        return .success(stream)
    }

    private static func setUserData(_ stream: Stream, _ memory: OpenJPEGMemory) {
        opj_stream_set_user_data(stream, Unmanaged.passRetained(memory).toOpaque()) { pointer in
            if let pointer { Unmanaged<OpenJPEGMemory>.fromOpaque(pointer).release() }
        }
    }

    private static func setUserDataLength(_ stream: Stream, _ length: Int) {
        opj_stream_set_user_data_length(stream, OPJ_UINT64(length))
    }

    /// `(OPJ_SIZE_T)-1`, the end of the stream or a failure. (OPJ_SIZE_T is `size_t`, which
    /// Swift imports as `Int`: its `max` would be read as a huge byte count.)
    static let endOfStream = ~OPJ_SIZE_T(0)

    private static func setReadFunction(_ stream: Stream) {
        opj_stream_set_read_function(stream) { buffer, count, user in
            guard let buffer, let user else { return OpenJPEG.endOfStream }
            let memory = Unmanaged<OpenJPEGMemory>.fromOpaque(user).takeUnretainedValue()
            let available = memory.bytes.count - memory.offset
            guard available > 0 else { return OpenJPEG.endOfStream }
            let n = min(Int(count), available)
            memory.bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: source.baseAddress! + memory.offset, byteCount: n)
            }
            memory.offset += n
            return OPJ_SIZE_T(n)
        }
    }

    private static func setWriteFunction(_ stream: Stream) {
        opj_stream_set_write_function(stream) { buffer, count, user in
            guard let buffer, let user else { return OpenJPEG.endOfStream }
            let memory = Unmanaged<OpenJPEGMemory>.fromOpaque(user).takeUnretainedValue()
            let chunk = UnsafeRawBufferPointer(start: buffer, count: Int(count))
            let end = memory.offset + chunk.count
            if end > memory.bytes.count { memory.bytes += [UInt8](repeating: 0, count: end - memory.bytes.count) }
            memory.bytes.withUnsafeMutableBytes { target in
                (target.baseAddress! + memory.offset).copyMemory(from: chunk.baseAddress!, byteCount: chunk.count)
            }
            memory.offset = end
            return count
        }
    }

    private static func setSkipFunction(_ stream: Stream) {
        opj_stream_set_skip_function(stream) { count, user in
            guard let user else { return -1 }
            let memory = Unmanaged<OpenJPEGMemory>.fromOpaque(user).takeUnretainedValue()
            let target = memory.offset + Int(count)
            // Reading: never past the end (OpenJPEG asserts its offset stays within the length).
            guard target >= 0, memory.reading ? target <= memory.bytes.count : true else { return -1 }
            memory.offset = target
            return count
        }
    }

    private static func setSeekFunction(_ stream: Stream) {
        opj_stream_set_seek_function(stream) { position, user in
            guard let user, position >= 0 else { return 0 }
            let memory = Unmanaged<OpenJPEGMemory>.fromOpaque(user).takeUnretainedValue()
            guard memory.reading ? Int(position) <= memory.bytes.count : true else { return 0 }
            memory.offset = Int(position)
            return 1
        }
    }

    static func destroyStream(_ stream: Stream) {
        opj_stream_destroy(stream)
    }

    static func readHeader(_ stream: Stream, _ codec: Codec) -> ImagingResult<UnsafeMutablePointer<opj_image_t>> {
        var image: UnsafeMutablePointer<opj_image_t>?
        guard opj_read_header(stream, codec, &image) != 0, let image else {
            if let image { destroyImage(image) }
            return .failure(failure("opj_read_header", "not a readable JPEG 2000 header"))
        }
        return .success(image)
    }

    static func decode(_ codec: Codec, _ stream: Stream, _ image: UnsafeMutablePointer<opj_image_t>) -> ImagingResult<Void> {
        guard opj_decode(codec, stream, image) != 0 else { return .failure(failure("opj_decode", "the JPEG 2000 data does not decode")) }
        return .success(())
    }

    static func endDecompress(_ codec: Codec, _ stream: Stream) -> ImagingResult<Void> {
        guard opj_end_decompress(codec, stream) != 0 else { return .failure(failure("opj_end_decompress", "the JPEG 2000 data ends early")) }
        return .success(())
    }

    static func createImage(_ parameters: inout [opj_image_cmptparm_t], colorSpace: OPJ_COLOR_SPACE) -> ImagingResult<UnsafeMutablePointer<opj_image_t>> {
        guard let image = opj_image_create(OPJ_UINT32(parameters.count), &parameters, colorSpace) else {
            return .failure(failure("opj_image_create", "no image"))
        }
        return .success(image)
    }

    static func destroyImage(_ image: UnsafeMutablePointer<opj_image_t>) {
        opj_image_destroy(image)
    }

    static func startCompress(_ codec: Codec, _ image: UnsafeMutablePointer<opj_image_t>, _ stream: Stream) -> ImagingResult<Void> {
        guard opj_start_compress(codec, image, stream) != 0 else { return .failure(failure("opj_start_compress", "encoding did not start")) }
        return .success(())
    }

    static func encode(_ codec: Codec, _ stream: Stream) -> ImagingResult<Void> {
        guard opj_encode(codec, stream) != 0 else { return .failure(failure("opj_encode", "encoding failed")) }
        return .success(())
    }

    static func endCompress(_ codec: Codec, _ stream: Stream) -> ImagingResult<Void> {
        guard opj_end_compress(codec, stream) != 0 else { return .failure(failure("opj_end_compress", "encoding did not finish")) }
        return .success(())
    }
}
