import COpenCV
import Imaging

/// The one place that calls COpenCV: each function makes one `idkcv_*` call and returns
/// its result or a ``VisionError`` naming the call.
enum OpenCV {
    /// Candidates one search returns at most.
    static let candidateCapacity = 8

    static func makeFinder(workingWidth: Int) -> Result<OpaquePointer, VisionError> {
        var error = idkcv_error()
        guard let finder = idkcv_finder_create(Int32(clamping: workingWidth), &error) else {
            return .failure(failure(error, call: "idkcv_finder_create"))
        }
        return .success(finder)
    }

    static func destroy(_ finder: OpaquePointer) {
        idkcv_finder_destroy(finder)
    }

    static func learn(_ finder: OpaquePointer, _ image: LumaImage, weight: Float) -> Result<Void, VisionError> {
        guard image.width > 0, image.height > 0 else { return .failure(emptyImage(call: "idkcv_finder_learn")) }
        var error = idkcv_error()
        let code = image.pixels.withUnsafeBufferPointer { p in
            idkcv_finder_learn(finder, p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), weight, &error)
        }
        return code == IDKCV_OK ? .success(()) : .failure(failure(error, call: "idkcv_finder_learn"))
    }

    static func forget(_ finder: OpaquePointer) {
        idkcv_finder_forget(finder)
    }

    static func backgroundFrames(_ finder: OpaquePointer) -> Int {
        Int(idkcv_finder_background_frames(finder))
    }

    static func find(_ finder: OpaquePointer, in image: LumaImage, minimumArea: Double) -> Result<[idkcv_candidate], VisionError> {
        guard image.width > 0, image.height > 0 else { return .failure(emptyImage(call: "idkcv_finder_find")) }
        var error = idkcv_error()
        var count: Int32 = 0
        var candidates = [idkcv_candidate](repeating: idkcv_candidate(), count: candidateCapacity)
        let code = image.pixels.withUnsafeBufferPointer { p in
            candidates.withUnsafeMutableBufferPointer { out in
                idkcv_finder_find(
                    finder, p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), Float(minimumArea),
                    out.baseAddress, Int32(out.count), &count, &error)
            }
        }
        guard code == IDKCV_OK else { return .failure(failure(error, call: "idkcv_finder_find")) }
        return .success(Array(candidates.prefix(Int(count))))
    }

    /// Whether the background was learned at frames of this size.
    static func backgroundFits(_ finder: OpaquePointer, width: Int, height: Int) -> Bool {
        idkcv_finder_background_fits(finder, Int32(width), Int32(height)) != 0
    }

    /// The foreground part, the change from the frame before and the ghosts left out, of the
    /// last `find`.
    static func lastFrame(_ finder: OpaquePointer) -> (foreground: Double, change: Double?, ghosts: Int) {
        var foreground: Float = 0, change: Float = -1
        idkcv_finder_last_frame(finder, &foreground, &change)
        return (Double(foreground), change < 0 ? nil : Double(change), Int(idkcv_finder_last_ghosts(finder)))
    }

    /// A grey-level closing of rows `fromRow`... of `image` by a `size` x `size` square.
    static func closing(_ image: LumaImage, fromRow y0: Int, size: Int) -> Result<[UInt8], VisionError> {
        let rows = image.height - y0
        guard image.width > 0, rows > 0, image.pixels.count >= image.width * image.height else {
            return .failure(emptyImage(call: "idkcv_closing"))
        }
        var error = idkcv_error()
        var out = [UInt8](repeating: 0, count: image.width * rows)
        let code = image.pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                idkcv_closing(
                    p.baseAddress! + y0 * image.width, Int32(image.width), Int32(rows), Int32(image.width), Int32(size),
                    o.baseAddress, Int32(image.width), &error)
            }
        }
        return code == IDKCV_OK ? .success(out) : .failure(failure(error, call: "idkcv_closing"))
    }

    /// Warps `corners` of `source` (1 or 3 channels of `width`) onto the whole of `target`.
    static func warp(
        _ source: [UInt8], width: Int, height: Int, channels: Int, corners: [Float],
        into target: inout [UInt8], targetWidth: Int, targetHeight: Int
    ) -> Result<Void, VisionError> {
        guard width > 0, height > 0, source.count >= width * height * channels else {
            return .failure(emptyImage(call: "idkcv_warp"))
        }
        var error = idkcv_error()
        let code = source.withUnsafeBufferPointer { s in
            corners.withUnsafeBufferPointer { c in
                target.withUnsafeMutableBufferPointer { t in
                    idkcv_warp(
                        s.baseAddress, Int32(width), Int32(height), Int32(width * channels), Int32(channels), c.baseAddress,
                        t.baseAddress, Int32(targetWidth), Int32(targetHeight), Int32(targetWidth * channels), &error)
                }
            }
        }
        return code == IDKCV_OK ? .success(()) : .failure(failure(error, call: "idkcv_warp"))
    }

    static func baselineFind(_ image: LumaImage) -> Result<[Float]?, VisionError> {
        guard image.width > 0, image.height > 0 else { return .failure(emptyImage(call: "idkcv_baseline_find")) }
        var error = idkcv_error()
        var corners = [Float](repeating: 0, count: 8)
        var found: Int32 = 0
        let code = image.pixels.withUnsafeBufferPointer { p in
            corners.withUnsafeMutableBufferPointer { c in
                idkcv_baseline_find(p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), c.baseAddress, &found, &error)
            }
        }
        guard code == IDKCV_OK else { return .failure(failure(error, call: "idkcv_baseline_find")) }
        return .success(found != 0 ? corners : nil)
    }

    /// The corners with each side moved to the stronger straight edge near it
    /// (idkcv_snap_sides), and how many sides moved.
    static func snapSides(
        _ image: LumaImage, _ corners: [Float], inward: Float, outward: Float, minimumContrast: Float
    ) -> Result<(corners: [Float], moved: Int), VisionError> {
        guard image.width > 0, image.height > 0 else { return .failure(emptyImage(call: "idkcv_snap_sides")) }
        var error = idkcv_error()
        var snapped = corners
        var moved: Int32 = 0
        let code = image.pixels.withUnsafeBufferPointer { p in
            snapped.withUnsafeMutableBufferPointer { c in
                idkcv_snap_sides(p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), c.baseAddress, inward, outward, minimumContrast, &moved, &error)
            }
        }
        guard code == IDKCV_OK else { return .failure(failure(error, call: "idkcv_snap_sides")) }
        return .success((snapped, Int(moved)))
    }

    /// A line of dark text as a rotated rectangle (idkcv_text_line), in the frame's pixels.
    struct TextLineRectangle {
        var cx, cy, length, thickness: Float
        /// The long side's direction in degrees from x toward y, -90...90.
        var angle: Float
    }

    /// Lines of dark text in `image` (idkcv_text_lines), longest first.
    static func textLines(
        _ image: LumaImage, stroke: Int, gap: Int, minimumLength: Float, capacity: Int = 256
    ) -> Result<[TextLineRectangle], VisionError> {
        guard image.width > 0, image.height > 0 else { return .failure(emptyImage(call: "idkcv_text_lines")) }
        var error = idkcv_error()
        var count: Int32 = 0
        var lines = [idkcv_text_line](repeating: idkcv_text_line(), count: capacity)
        let code = image.pixels.withUnsafeBufferPointer { p in
            lines.withUnsafeMutableBufferPointer { out in
                idkcv_text_lines(
                    p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), Int32(stroke), Int32(gap),
                    minimumLength, out.baseAddress, Int32(out.count), &count, &error)
            }
        }
        guard code == IDKCV_OK else { return .failure(failure(error, call: "idkcv_text_lines")) }
        return .success(lines.prefix(Int(count)).map {
            TextLineRectangle(cx: $0.cx, cy: $0.cy, length: $0.length, thickness: $0.thickness, angle: $0.angle)
        })
    }

    private static func failure(_ error: idkcv_error, call: String) -> VisionError {
        let message = withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let kind: VisionError.Kind = Int(error.code) == IDKCV_INVALID_ARGUMENT ? .invalidArgument : .library
        return VisionError(kind: kind, call: call, message: message.isEmpty ? "failed" : message)
    }

    private static func emptyImage(call: String) -> VisionError {
        VisionError(kind: .invalidArgument, call: call, message: "the image is empty")
    }
}

extension OpenCV {
    /// How the face's points moved from `first` to `second` against one plane (idkcv_parallax_measure).
    static func parallax(from first: LumaImage, to second: LumaImage, box: FaceBox) -> Result<idkcv_parallax, VisionError> {
        guard first.width > 0, first.height > 0, first.width == second.width, first.height == second.height else {
            return .failure(VisionError(kind: .invalidArgument, call: "idkcv_parallax_measure", message: "the frames must be of one size, not empty"))
        }
        var error = idkcv_error()
        var result = idkcv_parallax()
        let corners: [Float] = [Float(box.left), Float(box.top), Float(box.right), Float(box.bottom)]
        let code = first.pixels.withUnsafeBufferPointer { a in
            second.pixels.withUnsafeBufferPointer { b in
                idkcv_parallax_measure(a.baseAddress, b.baseAddress, Int32(first.width), Int32(first.height), Int32(first.width), corners, &result, &error)
            }
        }
        guard code == IDKCV_OK else { return .failure(failure(error, call: "idkcv_parallax_measure")) }
        return .success(result)
    }
}

extension OpenCV {
    static func loadCascade(_ path: String) -> Result<OpaquePointer, VisionError> {
        var error = idkcv_error()
        guard let cascade = idkcv_cascade_load(path, &error) else { return .failure(failure(error, call: "idkcv_cascade_load")) }
        return .success(cascade)
    }

    static func destroyCascade(_ cascade: OpaquePointer) { idkcv_cascade_destroy(cascade) }

    static func cascadeFaces(_ cascade: OpaquePointer, in image: LumaImage, minimumSize: Int) -> Result<[FaceBox], VisionError> {
        var error = idkcv_error()
        var count: Int32 = 0
        var boxes = [Float](repeating: 0, count: 4 * 16)
        let code = image.pixels.withUnsafeBufferPointer { p in
            boxes.withUnsafeMutableBufferPointer { out in
                idkcv_cascade_detect(cascade, p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), Int32(minimumSize), out.baseAddress, 16, &count, &error)
            }
        }
        guard code == IDKCV_OK else { return .failure(failure(error, call: "idkcv_cascade_detect")) }
        return .success((0..<min(16, Int(count))).map {
            FaceBox(left: Double(boxes[4 * $0]), top: Double(boxes[4 * $0 + 1]), right: Double(boxes[4 * $0 + 2]), bottom: Double(boxes[4 * $0 + 3]))
        })
    }
}
