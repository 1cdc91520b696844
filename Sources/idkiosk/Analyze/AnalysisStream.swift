import Camera
import Imaging

/// The frames of a recording or a camera as `analyze` reads them.
enum AnalysisStream {
    /// Starts `source` and hands each frame's luma, or why it cannot be decoded, to `body`:
    /// every frame of a recording, or `limit` (else `defaultCount`) frames of a camera.
    static func eachLuma(
        _ source: any FrameSource, limit: Int?, defaultCount: Int, _ body: (Int, Result<LumaImage, ImagingError>) -> Void
    ) async throws {
        do throws(CameraError) {
            try await source.start()
        } catch {
            throw CommandFailure(error)
        }
        defer { source.stop() }
        let file = source as? FileCamera<ImmediateClock>
        let count = file?.framesInFile ?? limit ?? defaultCount
        // A recording's frames are "due" at its frame rate on a clock that never waits: no
        // wait may time out. A camera that stops for 5 s is lost.
        let timeout: Duration = file == nil ? .seconds(5) : .seconds(86_400)
        let codec = JPEGCodec()
        var luma = LumaImage()
        defer { luma.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        for index in 0..<count {
            let frame: Frame
            do throws(CameraError) {
                frame = try await source.nextFrame(timeout: timeout)
            } catch {
                throw CommandFailure(error)
            }
            do throws(ImagingError) {
                try PixelConversion.luma(of: frame, into: &luma, codec: codec)
                body(index, .success(luma))
            } catch {
                body(index, .failure(error))
            }
        }
    }
}
