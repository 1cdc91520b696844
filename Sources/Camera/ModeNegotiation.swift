import Imaging

/// What a stream is for; each purpose has its own idea of the best mode.
public enum CapturePurpose: String, Hashable, Sendable, Codable, CaseIterable {
    /// Document capture: the highest resolution the camera delivers at 10 fps or more.
    case document
    /// Live preview on the display: 1280x720 at 25 fps or more.
    case preview
    /// Face and liveness capture: as preview, 1280x720 at 25 fps or more.
    case face

    /// The lowest frame rate acceptable for this purpose.
    public var minimumFramesPerSecond: Double {
        switch self {
        case .document: return 10
        case .preview, .face: return 25
        }
    }

    /// The frame size aimed at, or nil for "as large as possible".
    public var targetSize: (width: Int, height: Int)? {
        switch self {
        case .document: return nil
        case .preview, .face: return (1280, 720)
        }
    }
}

/// Chooses the best capture mode for a purpose from the modes a camera lists.
///
/// A pure function of its inputs, so every driver's quirks can be tested with
/// plain values. The rules, in order:
/// 1. only formats this module can decode, and only modes at or above the
///    purpose's minimum frame rate; if none reaches it, the fastest modes instead;
/// 2. document: the most pixels; preview and face: the target size exactly, else the
///    smallest size above it, else the largest size below it;
/// 3. among equal sizes, raw formats before MJPEG (no decode cost, no artefacts) in
///    the order of `PixelFormat.decodable`, then the lowest frame rate that meets the
///    minimum for document (longer exposure) and the highest otherwise.
///
/// - Parameters:
///   - modes: every (format, size, interval) the camera offers.
///   - purpose: what the stream is for.
/// - Returns: the chosen mode, or nil when no mode has a decodable format.
public func negotiateMode(_ modes: [CaptureMode], for purpose: CapturePurpose) -> CaptureMode? {
    let decodable = modes.filter { PixelFormat.decodable.contains($0.format) && $0.framesPerSecond > 0 }
    guard !decodable.isEmpty else { return nil }
    let fastEnough = decodable.filter { $0.framesPerSecond >= purpose.minimumFramesPerSecond - 0.01 }
    let candidates: [CaptureMode]
    if fastEnough.isEmpty {
        let best = decodable.map(\.framesPerSecond).max()!
        candidates = decodable.filter { $0.framesPerSecond >= best - 0.01 }
    } else {
        candidates = fastEnough
    }

    // Pick the size first.
    let sizes = Set(candidates.map { Size(width: $0.width, height: $0.height) })
    let size: Size
    if let target = purpose.targetSize {
        let t = Size(width: target.width, height: target.height)
        if sizes.contains(t) {
            size = t
        } else if let above = sizes.filter({ $0.width >= t.width && $0.height >= t.height }).min(by: { $0.pixels < $1.pixels }) {
            size = above
        } else {
            size = sizes.max(by: { ($0.pixels, $0.width) < ($1.pixels, $1.width) })!
        }
    } else {
        size = sizes.max(by: { ($0.pixels, $0.width) < ($1.pixels, $1.width) })!
    }

    // Then the format and rate at that size.
    let atSize = candidates.filter { $0.width == size.width && $0.height == size.height }
    func formatRank(_ f: PixelFormat) -> Int { PixelFormat.decodable.firstIndex(of: f) ?? Int.max }
    return atSize.min { a, b in
        let ra = formatRank(a.format), rb = formatRank(b.format)
        if ra != rb { return ra < rb }
        return purpose == .document ? a.framesPerSecond < b.framesPerSecond : a.framesPerSecond > b.framesPerSecond
    }
}

private struct Size: Hashable {
    var width: Int
    var height: Int
    var pixels: Int { width * height }
}
