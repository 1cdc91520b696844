import Foundation
import Imaging
import KioskTestKit
import Testing
@testable import Vision

/// Face detection and landmarks on real photographs (Support/FacePhotos.swift), against
/// landmarks annotated by hand and moved by known transforms.
@Suite("Face detector", .enabled(if: FacePhotos.available, "needs \(FacePhotos.missing)"))
struct FaceDetectorTests {
    /// A landmark may be this part of the eye distance from the truth (5 px on the astronaut).
    static let tolerance = 0.12

    func observe(_ image: RGBImage) throws -> FaceObservation {
        try FaceDetector(models: FacePhotos.models).observe(LumaImage(image))
    }

    @Test("the astronaut: one face, its box around the annotated landmarks, each landmark near the annotation",
          .enabled(if: FacePhotos.models != nil, "needs \(FacePhotos.modelsMissing)"))
    func astronaut() throws {
        let observation = try observe(try FacePhotos.astronaut)
        #expect(observation.faces.count == 1)
        let face = try #require(observation.face)
        let truth = FacePhotos.astronautLandmarks
        for p in truth.points { #expect(p.x > face.box.left && p.x < face.box.right && p.y > face.box.top && p.y < face.box.bottom) }
        let landmarks = try #require(face.landmarks)
        #expect(landmarks.largestError(against: truth) < Self.tolerance * truth.eyeDistance)
        #expect(abs(landmarks.roll) < 4)
        #expect(abs(landmarks.yaw) < 12)
        #expect(face.quality.whole)
        #expect(face.confidence > 0)
    }

    @Test("turned in the image by -25...25 degrees: the landmarks follow and the roll is the turn",
          .enabled(if: FacePhotos.models != nil, "needs \(FacePhotos.modelsMissing)"),
          arguments: [-25.0, -12, 8, 20, 25])
    func rotated(degrees: Double) throws {
        let truth = FacePhotos.astronautLandmarks
        let t = Affine.rotation(degrees, about: truth.eyeMidpoint)
        let observation = try observe(t.warp(try FacePhotos.astronaut, width: 512, height: 512))
        let landmarks = try #require(observation.face?.landmarks)
        let expected = truth.mapped(t)
        #expect(landmarks.largestError(against: expected) < Self.tolerance * truth.eyeDistance, "\(degrees)°")
        #expect(abs(landmarks.roll - (degrees + truth.roll)) < 4, "roll \(landmarks.roll) for \(degrees)°")
    }

    @Test("mirrored: the eyes change sides and the roll and nose offset change sign",
          .enabled(if: FacePhotos.models != nil, "needs \(FacePhotos.modelsMissing)"))
    func mirrored() throws {
        let truth = FacePhotos.astronautLandmarks
        let m = Affine.mirror(width: 512)
        let original = try #require(try observe(try FacePhotos.astronaut).face?.landmarks)
        let landmarks = try #require(try observe(m.warp(try FacePhotos.astronaut, width: 512, height: 512)).face?.landmarks)
        let expected = FaceLandmarks(
            leftEyeOuter: m.apply(truth.rightEyeOuter), leftEyeInner: m.apply(truth.rightEyeInner),
            rightEyeInner: m.apply(truth.leftEyeInner), rightEyeOuter: m.apply(truth.leftEyeOuter), noseBase: m.apply(truth.noseBase))
        #expect(landmarks.largestError(against: expected) < Self.tolerance * truth.eyeDistance)
        #expect(abs(landmarks.roll + original.roll) < 2)
        #expect(abs(landmarks.noseOffset + original.noseOffset) < 0.05)
    }

    @Test("a 1280x720 frame is halved for detection and the box comes back in the frame's pixels")
    func largeFrame() throws {
        let truth = FacePhotos.astronautLandmarks
        // The photo at 1.5x with its eyes' midpoint moved to (700, 330).
        let t = Affine.rotation(0, scale: 1.5, about: truth.eyeMidpoint, shift: Point(x: 700 - truth.eyeMidpoint.x, y: 330 - truth.eyeMidpoint.y))
        let frame = t.warp(try FacePhotos.astronaut, width: 1280, height: 720)
        let face = try #require(try FaceDetector().observe(LumaImage(frame)).face)
        #expect(face.landmarks == nil)
        let centre = t.apply(truth.eyeMidpoint)
        #expect(centre.x > face.box.left && centre.x < face.box.right && centre.y > face.box.top && centre.y < face.box.bottom)
        #expect(face.box.width > 1.5 * 60 && face.box.width < 1.5 * 130)
    }

    @Test("no face in a photograph of a cup, in flat grey, or in black")
    func noFace() throws {
        let detector = try FaceDetector(models: FacePhotos.models)
        #expect(try detector.observe(LumaImage(try FacePhotos.rgb(FacePhotos.coffeePath))).faces.isEmpty)
        #expect(try detector.observe(LumaImage(width: 640, height: 480, pixels: [UInt8](repeating: 128, count: 640 * 480))).faces.isEmpty)
        #expect(try detector.observe(LumaImage(width: 64, height: 48)).faces.isEmpty)
    }

    @Test("two people side by side: two faces")
    func twoFaces() throws {
        let astronaut = try FacePhotos.astronaut, hopper = try FacePhotos.hopper
        var frame = RGBImage(width: 1024, height: 600)
        for y in 0..<512 { for x in 0..<512 { for c in 0..<3 { frame.pixels[3 * (y * 1024 + x) + c] = astronaut.pixels[3 * (y * 512 + x) + c] } } }
        let s = Affine.rotation(0, scale: 0.9, about: Point(x: 0, y: 0), shift: Point(x: 512, y: 0))
        let right = s.warp(hopper, width: 1024, height: 600)
        for y in 0..<600 { for x in 512..<1024 { for c in 0..<3 { frame.pixels[3 * (y * 1024 + x) + c] = right.pixels[3 * (y * 1024 + x) + c] } } }
        var settings = FaceDetector.Settings()
        settings.detectionWidth = 1024
        let observation = try FaceDetector(settings: settings).observe(LumaImage(frame))
        #expect(observation.faces.count == 2)
        #expect(Set(observation.faces.map { $0.box.centre.x < 512 }) == [true, false])
    }

    @Test("an empty image or one shorter than its size is a typed error")
    func badImages() throws {
        let detector = try FaceDetector()
        #expect(throws: VisionError.self) { try detector.observe(LumaImage()) }
        #expect(throws: VisionError.self) { try detector.observe(LumaImage(width: 10, height: 10, pixels: [1, 2, 3])) }
    }

    @Test("the face's quality is measured on its box: a dark face before a bright window is backlit")
    func backlight() throws {
        var image = try FacePhotos.astronaut
        let face = try #require(try FaceDetector().observe(LumaImage(image)).face)
        // Darken the face box to a third and brighten everything else to near white.
        for y in 0..<512 {
            for x in 0..<512 {
                let inside = Double(x) >= face.box.left && Double(x) < face.box.right && Double(y) >= face.box.top && Double(y) < face.box.bottom
                for c in 0..<3 {
                    let i = 3 * (y * 512 + x) + c
                    image.pixels[i] = inside ? image.pixels[i] / 3 : UInt8(min(255, 200 + Int(image.pixels[i]) / 5))
                }
            }
        }
        let quality = FaceDetector.quality(of: LumaImage(image), box: face.box)
        #expect(quality.brightness < 70)
        #expect(quality.surround - quality.brightness > 100)
    }
}

@Suite("Face models", .enabled(if: FacePhotos.available, "needs \(FacePhotos.missing)"))
struct FaceModelTests {
    @Test("the model files' SHA-256 gives FIPS 180-4's examples (empty, abc, two blocks) and a million a's")
    func sha256KnownAnswers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(String, [UInt8])] = [
            ("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", []),
            ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Array("abc".utf8)),
            ("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            ("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", [UInt8](repeating: 0x61, count: 1_000_000)),
        ]
        for (index, (digest, bytes)) in cases.enumerated() {
            let path = folder + "/\(index)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try Dlib.sha256(path: path).get() == digest)
        }
        guard case .failure(let failure) = Dlib.sha256(path: folder + "/none") else {
            Issue.record("a missing file had a digest")
            return
        }
        #expect(failure.errno == ENOENT)
    }

    @Test("loading says what it cost", .enabled(if: FacePhotos.models != nil, "needs \(FacePhotos.modelsMissing)"))
    func cost() throws {
        let models = try FaceModels(folder: VisionCrops.models)
        #expect(models.cost.milliseconds > 0)
        #expect(models.cost.fileBytes == 9_150_489 + 22_466_066)
    }

    @Test("a missing folder, a changed file and a file dlib cannot read are typed errors",
          .enabled(if: FacePhotos.models != nil, "needs \(FacePhotos.modelsMissing)"))
    func badFiles() throws {
        #expect(throws: FaceModelError.missing(path: "/nonexistent/\(FaceModels.landmarksFileName)")) {
            try FaceModels(folder: "/nonexistent")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("face-models-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in [FaceModels.landmarksFileName, FaceModels.embeddingFileName] {
            try FileManager.default.copyItem(atPath: VisionCrops.models + "/" + name, toPath: folder + "/" + name)
        }
        _ = try FaceModels(folder: folder)
        // The network cut short: its checksum no longer holds.
        let path = folder + "/" + FaceModels.embeddingFileName
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        do {
            _ = try FaceModels(folder: folder)
            Issue.record("a truncated model loaded")
        } catch {
            #expect(error.code == "model-checksum")
        }
        // What dlib says of a file that is not its model.
        let text = folder + "/not-a-model.dat"
        try Data("not a model\n".utf8).write(to: URL(fileURLWithPath: text))
        guard case .failure(.corrupt(let reason)) = Dlib.loadShape(path: text) else {
            Issue.record("dlib read a text file as a shape predictor")
            return
        }
        #expect(!reason.isEmpty && !reason.contains("\n"))
        guard case .failure(.corrupt) = Dlib.loadNet(path: VisionCrops.models + "/" + FaceModels.landmarksFileName) else {
            Issue.record("dlib read the shape predictor as the network")
            return
        }
    }
}
