import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import ServiceLifecycle

/// The camera preview as `multipart/x-mixed-replace`: every JPEG is one part, which a
/// browser's `<img>` shows in place of the previous one.
enum MJPEGStream {
    static let boundary = "idkiosk-preview"

    /// A response that streams `frames` until the viewer goes away, the source ends, or the
    /// server shuts down gracefully.
    static func response(frames: AsyncStream<[UInt8]>, logger: Logger) -> Response {
        let (parts, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(2))
        // Task inherits the server's task locals, so it sees the graceful shutdown.
        let feeder = Task {
            await cancelWhenGracefulShutdown {
                for await jpeg in frames {
                    continuation.yield(part(jpeg))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in feeder.cancel() }
        return Response(
            status: .ok,
            headers: [
                .contentType: "multipart/x-mixed-replace; boundary=\(boundary)",
                .cacheControl: "no-store",
            ],
            body: ResponseBody(asyncSequence: parts)
        )
    }

    static func part(_ jpeg: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(jpeg.count + 96)
        buffer.writeString("--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n")
        buffer.writeBytes(jpeg)
        buffer.writeString("\r\n")
        return buffer
    }
}
