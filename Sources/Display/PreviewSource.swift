/// Where the display's live camera preview comes from.
///
/// The source provides JPEG frames already scaled to display size, a few per second; the
/// display server never sees a full-resolution capture.
public protocol PreviewSource: Sendable {
    /// A new stream of JPEG frames for one viewer; it ends when the viewer goes away
    /// (the server stops iterating) or the source stops.
    func previewFrames() -> AsyncStream<[UInt8]>
}
