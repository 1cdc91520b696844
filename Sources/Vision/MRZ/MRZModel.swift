import Foundation

/// The OCR-B character classifier of the MRZ reader: a one-hidden-layer perceptron over
/// a normalised character cell, trained from the font by
/// `scripts/vision-models/train-mrz.py` (docs/vision-models.md: format, data, licence).
///
/// Load it once and share it: it is an immutable value.
public struct MRZModel: Sendable {
    /// The file name `make vision-models` writes into `.cache/models/`.
    public static let fileName = "mrz-ocrb-v1.bin"
    /// The manifest beside the model: `<sha256>  <name>` lines, as `sha256sum` prints them.
    public static let manifestName = "MANIFEST"
    static let magic = Array("IKMRZOCR".utf8)
    static let version: UInt32 = 1

    /// The cell the classifier reads, in samples.
    public let cellWidth: Int
    public let cellHeight: Int
    /// The characters of the output classes, in order (ASCII).
    public let alphabet: [UInt8]
    /// The layers: weights row-major `[outputs][inputs]`, then biases.
    let hidden: Layer
    let output: Layer

    struct Layer: Sendable {
        let inputs: Int
        let outputs: Int
        let weights: [Float]
        let biases: [Float]
    }

    /// Loads `fileName` from `folder`, checked against the folder's manifest.
    /// - Throws: ``MRZModelError``: missing, not in the manifest, checksum, magic, version or shape.
    public init(folder: String) throws(MRZModelError) {
        let path = (folder as NSString).appendingPathComponent(Self.fileName)
        let manifestPath = (folder as NSString).appendingPathComponent(Self.manifestName)
        let bytes = try Self.read(path)
        guard let manifest = try? Self.read(manifestPath),
              let expected = Self.digest(of: Self.fileName, inManifest: manifest)
        else { throw .notInManifest(path: manifestPath, name: Self.fileName) }
        let actual: String
        switch Dlib.sha256(path: path) {
        case .success(let digest): actual = digest
        case .failure(let failure): throw .unreadable(path: path, errno: failure.errno)
        }
        guard actual == expected else { throw .checksumMismatch(path: path, expected: expected, actual: actual) }
        try self.init(bytes: bytes, path: path)
    }

    /// Parses a model's bytes (already checked by the caller).
    /// - Parameter path: names the file in errors.
    /// - Throws: ``MRZModelError`` for a wrong magic, version or shape, or a truncated file.
    public init(bytes: [UInt8], path: String = "<memory>") throws(MRZModelError) {
        var reader = ByteReader(bytes: bytes, path: path)
        guard bytes.count >= Self.magic.count, Array(bytes[0..<Self.magic.count]) == Self.magic else { throw .wrongMagic(path: path) }
        reader.offset = Self.magic.count
        let version = try reader.uint32()
        guard version == Self.version else { throw .unsupportedVersion(path: path, found: version) }
        let width = Int(try reader.uint32()), height = Int(try reader.uint32()), classes = Int(try reader.uint32())
        guard (1...64).contains(width), (1...64).contains(height), (2...256).contains(classes) else {
            throw .corrupt(path: path, reason: "cell \(width)x\(height), \(classes) classes")
        }
        let alphabet = try reader.bytes(classes)
        let layers = try reader.uint32()
        guard layers == 2 else { throw .corrupt(path: path, reason: "\(layers) layers, expected 2") }
        let hidden = try reader.layer()
        let output = try reader.layer()
        guard hidden.inputs == width * height, output.inputs == hidden.outputs, output.outputs == classes else {
            throw .corrupt(path: path, reason: "layer shapes \(hidden.inputs)x\(hidden.outputs), \(output.inputs)x\(output.outputs) do not fit a \(width)x\(height) cell and \(classes) classes")
        }
        guard reader.offset == bytes.count else { throw .corrupt(path: path, reason: "\(bytes.count - reader.offset) trailing bytes") }
        self.cellWidth = width
        self.cellHeight = height
        self.alphabet = alphabet
        self.hidden = hidden
        self.output = output
    }

    /// The class probabilities (softmax) of one cell's features.
    func probabilities(_ features: UnsafeBufferPointer<Float>, into result: inout [Float]) {
        var activations = [Float](repeating: 0, count: hidden.outputs)
        hidden.apply(features, into: &activations, rectify: true)
        activations.withUnsafeBufferPointer { output.apply($0, into: &result, rectify: false) }
        let maximum = result.max() ?? 0
        var sum: Float = 0
        for i in result.indices {
            result[i] = expf(result[i] - maximum)
            sum += result[i]
        }
        for i in result.indices { result[i] /= sum }
    }

    private static func read(_ path: String) throws(MRZModelError) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path: path, errno: errno) }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.readToEnd() ?? Data())
        } catch {
            throw .unreadable(path: path, errno: errno)
        }
    }

    /// The digest a `sha256sum`-style manifest gives for `name`.
    static func digest(of name: String, inManifest bytes: [UInt8]) -> String? {
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let parts = line.split(whereSeparator: \.isWhitespace)
            if parts.count == 2, parts[1] == name || parts[1] == "*" + name { return String(parts[0]).lowercased() }
        }
        return nil
    }
}

extension MRZModel.Layer {
    /// `result[o] = biases[o] + Σ weights[o][i] · input[i]`, rectified when asked. Four
    /// running sums: independent additions the processor overlaps (the compiler does not
    /// reorder a float sum by itself), in plain loops a debug build runs fast enough too.
    func apply(_ input: UnsafeBufferPointer<Float>, into result: inout [Float], rectify: Bool) {
        let quads = inputs / 4 * 4
        weights.withUnsafeBufferPointer { w in
            for o in 0..<outputs {
                let row = o * inputs
                var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
                var i = 0
                while i < quads {
                    s0 += w[row + i] * input[i]
                    s1 += w[row + i + 1] * input[i + 1]
                    s2 += w[row + i + 2] * input[i + 2]
                    s3 += w[row + i + 3] * input[i + 3]
                    i += 4
                }
                while i < inputs {
                    s0 += w[row + i] * input[i]
                    i += 1
                }
                let sum = biases[o] + (s0 + s1) + (s2 + s3)
                result[o] = rectify ? max(sum, 0) : sum
            }
        }
    }
}

/// Little-endian fields of the model file, each checked against the end.
private struct ByteReader {
    let bytes: [UInt8]
    let path: String
    var offset = 0

    mutating func bytes(_ count: Int) throws(MRZModelError) -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else { throw .corrupt(path: path, reason: "truncated at byte \(offset)") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func uint32() throws(MRZModelError) -> UInt32 {
        let b = try bytes(4)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }

    mutating func floats(_ count: Int) throws(MRZModelError) -> [Float] {
        let b = try bytes(4 * count)
        return (0..<count).map { i in
            Float(bitPattern: UInt32(b[4 * i]) | UInt32(b[4 * i + 1]) << 8 | UInt32(b[4 * i + 2]) << 16 | UInt32(b[4 * i + 3]) << 24)
        }
    }

    mutating func layer() throws(MRZModelError) -> MRZModel.Layer {
        let inputs = Int(try uint32()), outputs = Int(try uint32())
        guard (1...4096).contains(inputs), (1...4096).contains(outputs) else {
            throw .corrupt(path: path, reason: "layer of \(inputs)x\(outputs)")
        }
        let weights = try floats(inputs * outputs)
        let biases = try floats(outputs)
        guard weights.allSatisfy(\.isFinite), biases.allSatisfy(\.isFinite) else { throw .corrupt(path: path, reason: "weights that are not finite") }
        return MRZModel.Layer(inputs: inputs, outputs: outputs, weights: weights, biases: biases)
    }
}
