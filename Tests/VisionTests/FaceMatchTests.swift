import Imaging
import KioskTestKit
import Testing
import Vision

/// Embeddings and the match decision on real photographs: the same photograph moved and
/// scaled must match itself, two people must not.
@Suite("Face match", .enabled(if: FacePhotos.available && FacePhotos.models != nil, "needs \(FacePhotos.missing) and \(FacePhotos.modelsMissing)"))
struct FaceMatchTests {
    func embedding(_ image: RGBImage) throws -> FaceEmbedding {
        let models = try #require(FacePhotos.models)
        return try #require(try models.embedding(ofSurestFaceIn: image, detector: FaceDetector(models: models)))
    }

    @Test("the astronaut turned, scaled and moved matches herself; Grace Hopper does not match her")
    func matchAndNoMatch() throws {
        let astronaut = try FacePhotos.astronaut
        let truth = FacePhotos.astronautLandmarks
        let original = try embedding(astronaut)
        #expect(original.values.count == 128)
        let norm = original.values.reduce(0) { $0 + Double($1 * $1) }.squareRoot()
        #expect(norm > 0.5 && norm < 1.5)
        let moved = try embedding(Affine.rotation(12, scale: 0.7, about: truth.eyeMidpoint, shift: Point(x: -40, y: 30)).warp(astronaut, width: 512, height: 512))
        let hopper = try embedding(try FacePhotos.hopper)
        let matcher = FaceMatcher()
        let same = matcher.compare(original, moved)
        let other = matcher.compare(original, hopper)
        #expect(same.decision == .match, "distance \(same.distance)")
        #expect(other.decision == .noMatch, "distance \(other.distance)")
        #expect(same.similarity > other.similarity)
        #expect(matcher.compare(original, original).similarity == 1)
    }

    @Test("the decision bands: match below the threshold less the band, review within it, no match above")
    func bands() {
        var settings = FaceMatcher.Settings()
        settings.threshold = 0.6
        settings.reviewBand = 0.05
        let matcher = FaceMatcher(settings: settings)
        func at(_ d: Float) -> FaceMatcher.Result { matcher.compare(FaceEmbedding(values: [0, 0]), FaceEmbedding(values: [d, 0])) }
        #expect(at(0.5).decision == .match)
        #expect(at(0.57).decision == .review)
        #expect(at(0.64).decision == .review)
        #expect(at(0.7).decision == .noMatch)
        #expect(abs(at(0.6).similarity - 0.5) < 1e-6)
        #expect(at(1.5).similarity == 0)
        #expect(matcher.compare(FaceEmbedding(values: [0]), FaceEmbedding(values: [0, 1])).decision == .noMatch)
    }

    @Test("a wiped embedding holds nothing")
    func wipe() {
        var embedding = FaceEmbedding(values: [0.1, 0.2])
        embedding.wipe()
        #expect(embedding.values.isEmpty)
    }
}
