import CDlib
import Foundation
import Imaging

/// The one place that calls CDlib: each function makes one `idkdl_*` call and returns its
/// result or a ``VisionError`` naming the call.
enum Dlib {
    /// Faces one detection returns at most.
    static let faceCapacity = 8
    /// The side of the aligned chip the face network takes.
    static var chipSize: Int { Int(idkdl_chip_size()) }

    static func makeDetector() -> Result<OpaquePointer, VisionError> {
        var error = idkdl_error()
        guard let detector = idkdl_detector_create(&error) else { return .failure(failure(error, call: "idkdl_detector_create")) }
        return .success(detector)
    }

    static func destroyDetector(_ detector: OpaquePointer) { idkdl_detector_destroy(detector) }

    static func detect(_ detector: OpaquePointer, in image: LumaImage, upsample: Int, threshold: Double) -> Result<[idkdl_face], VisionError> {
        guard image.width > 0, image.height > 0 else { return .failure(emptyImage(call: "idkdl_detect")) }
        var error = idkdl_error()
        var count: Int32 = 0
        var faces = [idkdl_face](repeating: idkdl_face(), count: faceCapacity)
        let code = image.pixels.withUnsafeBufferPointer { p in
            faces.withUnsafeMutableBufferPointer { out in
                idkdl_detect(
                    detector, p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), Int32(upsample), threshold,
                    out.baseAddress, Int32(out.count), &count, &error)
            }
        }
        guard code == IDKDL_OK else { return .failure(failure(error, call: "idkdl_detect")) }
        return .success(Array(faces.prefix(Int(count))))
    }

    /// Loads a shape predictor; a file dlib cannot read is `.corrupt` with dlib's first line.
    static func loadShape(path: String) -> Result<OpaquePointer, DlibLoadFailure> {
        var error = idkdl_error()
        guard let shape = idkdl_shape_load(path, &error) else { return .failure(loadFailure(error)) }
        return .success(shape)
    }

    static func destroyShape(_ shape: OpaquePointer) { idkdl_shape_destroy(shape) }

    static func points(_ shape: OpaquePointer) -> Int { Int(idkdl_shape_points(shape)) }

    static func landmarks(_ shape: OpaquePointer, in image: LumaImage, box: FaceBox) -> Result<[Point], VisionError> {
        guard image.width > 0, image.height > 0 else { return .failure(emptyImage(call: "idkdl_landmarks")) }
        var error = idkdl_error()
        let count = points(shape)
        var values = [Float](repeating: 0, count: 2 * count)
        let corners: [Float] = [Float(box.left), Float(box.top), Float(box.right), Float(box.bottom)]
        let code = image.pixels.withUnsafeBufferPointer { p in
            values.withUnsafeMutableBufferPointer { out in
                idkdl_landmarks(shape, p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), corners, out.baseAddress, Int32(count), &error)
            }
        }
        guard code == IDKDL_OK else { return .failure(failure(error, call: "idkdl_landmarks")) }
        return .success((0..<count).map { Point(x: Double(values[2 * $0]), y: Double(values[2 * $0 + 1])) })
    }

    static func loadNet(path: String) -> Result<OpaquePointer, DlibLoadFailure> {
        var error = idkdl_error()
        guard let net = idkdl_net_load(path, &error) else { return .failure(loadFailure(error)) }
        return .success(net)
    }

    static func destroyNet(_ net: OpaquePointer) { idkdl_net_destroy(net) }

    /// The aligned chip (packed RGB, `size` square) of the face with these five points in dlib's order.
    static func chip(of image: RGBImage, points: [Point], size: Int, padding: Double) -> Result<RGBImage, VisionError> {
        guard image.width > 0, image.height > 0 else { return .failure(emptyImage(call: "idkdl_chip")) }
        guard points.count == 5 else { return .failure(VisionError(kind: .invalidArgument, call: "idkdl_chip", message: "five landmarks are needed")) }
        var error = idkdl_error()
        var chip = RGBImage(width: size, height: size)
        let flat = points.flatMap { [Float($0.x), Float($0.y)] }
        let code = image.pixels.withUnsafeBufferPointer { p in
            chip.pixels.withUnsafeMutableBufferPointer { out in
                idkdl_chip(p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 3), flat, Int32(size), padding, out.baseAddress, &error)
            }
        }
        guard code == IDKDL_OK else { return .failure(failure(error, call: "idkdl_chip")) }
        return .success(chip)
    }

    static func embed(_ net: OpaquePointer, chip: RGBImage) -> Result<[Float], VisionError> {
        guard chip.width == chipSize, chip.height == chipSize else {
            return .failure(VisionError(kind: .invalidArgument, call: "idkdl_embed", message: "the chip must be \(chipSize)x\(chipSize)"))
        }
        var error = idkdl_error()
        var embedding = [Float](repeating: 0, count: 128)
        let code = chip.pixels.withUnsafeBufferPointer { p in
            embedding.withUnsafeMutableBufferPointer { out in idkdl_embed(net, p.baseAddress, out.baseAddress, &error) }
        }
        guard code == IDKDL_OK else { return .failure(failure(error, call: "idkdl_embed")) }
        return .success(embedding)
    }

    /// A file's SHA-256 as 64 lowercase hexadecimal digits, or the errno of a failed read.
    static func sha256(path: String) -> Result<String, ReadFailure> {
        var digest = [UInt8](repeating: 0, count: 32)
        var number: Int32 = 0
        var error = idkdl_error()
        guard idkdl_sha256_file(path, &digest, &number, &error) == IDKDL_OK else { return .failure(ReadFailure(errno: number)) }
        return .success(digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined())
    }

    struct ReadFailure: Error {
        var errno: Int32
    }

    /// Why a model file did not load: dlib could not read it (`corrupt`), or another failure.
    enum DlibLoadFailure: Error {
        case corrupt(String)
        case other(VisionError)
    }

    private static func loadFailure(_ error: idkdl_error) -> DlibLoadFailure {
        let message = firstLine(error)
        return error.code == IDKDL_MODEL_CORRUPT ? .corrupt(message) : .other(failure(error, call: "idkdl_*_load"))
    }

    private static func firstLine(_ error: idkdl_error) -> String {
        var message = error.message
        let text = withUnsafeBytes(of: &message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        // dlib's messages run over several lines; the line that says why is the last non-empty one.
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.last.map { $0.hasPrefix("ERROR: ") ? String($0.dropFirst(7)) : $0 } ?? "unknown"
    }

    private static func failure(_ error: idkdl_error, call: String) -> VisionError {
        let kind: VisionError.Kind = error.code == IDKDL_INVALID_ARGUMENT ? .invalidArgument : .library
        return VisionError(kind: kind, call: call, message: firstLine(error))
    }

    private static func emptyImage(call: String) -> VisionError {
        VisionError(kind: .invalidArgument, call: call, message: "the image is empty")
    }
}
