import Foundation
import Testing
import Vision

/// The model loader refuses every bad file with a typed error, never a crash.
@Suite("MRZ model file")
struct MRZModelTests {
    /// A temporary folder holding `model` and a manifest of `manifestDigest` (or the model's own).
    static func folder(model: [UInt8]?, manifest: String?) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mrz-model-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let model { try Data(model).write(to: URL(fileURLWithPath: path + "/" + MRZModel.fileName)) }
        if let manifest { try Data(manifest.utf8).write(to: URL(fileURLWithPath: path + "/" + MRZModel.manifestName)) }
        return path
    }

    static func sha256(_ bytes: [UInt8]) throws -> String {
        // The tests check the loader's digest with coreutils', an implementation we did not write.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: output, as: UTF8.self).prefix(64))
    }

    /// A well-formed model of the right shapes with small weights: 16x24 cells, 37 classes, 8 hidden units.
    static func tinyModel(version: UInt32 = 1, magic: String = "IKMRZOCR", hidden: Int = 8) -> [UInt8] {
        var bytes = Array(magic.utf8)
        func u32(_ v: UInt32) { bytes += withUnsafeBytes(of: v.littleEndian, Array.init) }
        func floats(_ n: Int) { for i in 0..<n { bytes += withUnsafeBytes(of: Float(i % 7) * 0.01, { Array($0) }) } }
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<".utf8)
        u32(version); u32(16); u32(24); u32(UInt32(alphabet.count))
        bytes += alphabet
        u32(2)
        u32(384); u32(UInt32(hidden)); floats(384 * hidden + hidden)
        u32(UInt32(hidden)); u32(37); floats(hidden * 37 + 37)
        return bytes
    }

    @Test func loadsAWellFormedModelListedInItsManifest() throws {
        let model = Self.tinyModel()
        let folder = try Self.folder(model: model, manifest: "\(try Self.sha256(model))  \(MRZModel.fileName)\n")
        let loaded = try MRZModel(folder: folder)
        #expect(loaded.cellWidth == 16 && loaded.cellHeight == 24)
        #expect(loaded.alphabet.count == 37)
    }

    @Test func missingFile() throws {
        let folder = try Self.folder(model: nil, manifest: nil)
        #expect(throws: MRZModelError.missing(path: folder + "/" + MRZModel.fileName)) { try MRZModel(folder: folder) }
    }

    @Test func missingManifestOrEntry() throws {
        let model = Self.tinyModel()
        let noManifest = try Self.folder(model: model, manifest: nil)
        #expect(throws: MRZModelError.notInManifest(path: noManifest + "/MANIFEST", name: MRZModel.fileName)) { try MRZModel(folder: noManifest) }
        let otherEntry = try Self.folder(model: model, manifest: "\(try Self.sha256(model))  other.bin\n")
        #expect(throws: MRZModelError.notInManifest(path: otherEntry + "/MANIFEST", name: MRZModel.fileName)) { try MRZModel(folder: otherEntry) }
    }

    @Test func checksumMismatch() throws {
        var model = Self.tinyModel()
        let digest = try Self.sha256(model)
        model[model.count - 1] ^= 0x01
        let folder = try Self.folder(model: model, manifest: "\(digest)  \(MRZModel.fileName)\n")
        #expect(throws: MRZModelError.checksumMismatch(path: folder + "/" + MRZModel.fileName, expected: digest, actual: try Self.sha256(model))) {
            try MRZModel(folder: folder)
        }
    }

    @Test func truncatedFile() throws {
        let model = Array(Self.tinyModel().dropLast(10))
        let folder = try Self.folder(model: model, manifest: "\(try Self.sha256(model))  \(MRZModel.fileName)\n")
        let error = #expect(throws: MRZModelError.self) { try MRZModel(folder: folder) }
        #expect(error?.code == "model-corrupt")
        // Every prefix of a model is refused, none crashes.
        let whole = Self.tinyModel()
        for length in stride(from: 0, to: whole.count, by: 97) {
            #expect(throws: MRZModelError.self) { try MRZModel(bytes: Array(whole.prefix(length))) }
        }
    }

    @Test func wrongMagicAndVersion() {
        #expect(throws: MRZModelError.wrongMagic(path: "<memory>")) { try MRZModel(bytes: Self.tinyModel(magic: "NOTMODEL")) }
        #expect(throws: MRZModelError.unsupportedVersion(path: "<memory>", found: 2)) { try MRZModel(bytes: Self.tinyModel(version: 2)) }
    }

    @Test func shapesThatDoNotFitAreCorrupt() {
        var model = Self.tinyModel()
        model += [0, 0, 0, 0]
        let error = #expect(throws: MRZModelError.self) { try MRZModel(bytes: model) }
        #expect(error?.code == "model-corrupt")
    }
}
