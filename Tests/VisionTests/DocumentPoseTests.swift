import Testing
import Vision

@Suite("Document pose and quadrilaterals")
struct DocumentPoseTests {
    let scene = SyntheticScene()

    @Test("a frontal rectangle: no tilt, no rotation, its own aspect ratio")
    func frontal() throws {
        let pose = try #require(DocumentPose(scene.corners(.init(size: DocumentClass.td1.size)), width: 1280, height: 720, focalLength: scene.focalLength))
        #expect(pose.tiltDegrees < 0.01)
        #expect(pose.rotationDegrees.magnitude < 0.01)
        #expect((pose.aspectRatio - DocumentClass.td1.aspectRatio).magnitude < 0.001)
    }

    @Test("tilt, rotation and aspect ratio recovered through the projection", arguments: [(0.0, 0.0), (20, 0), (35, 10), (10, -25), (30, 60)])
    func projected(tilt: Double, rotation: Double) throws {
        let quadrilateral = scene.corners(.init(size: DocumentClass.td3.size, distance: 300, offset: (30, -20), tiltDegrees: tilt, rotationDegrees: rotation))
        let pose = try #require(DocumentPose(quadrilateral, width: 1280, height: 720, focalLength: scene.focalLength))
        #expect((pose.tiltDegrees - tilt).magnitude < 0.5)
        #expect((pose.aspectRatio - DocumentClass.td3.aspectRatio).magnitude < 0.01)
        // The image rotation equals the plane's for a document facing the camera; tilt skews it a little.
        #expect((pose.rotationDegrees - rotation).magnitude < (tilt == 0 ? 0.5 : 6))
    }

    @Test("a degenerate quadrilateral has no pose")
    func degenerate() {
        let point = Point(x: 10, y: 10)
        #expect(DocumentPose(Quadrilateral([point, point, point, point]), width: 100, height: 100, focalLength: 100) == nil)
    }

    @Test("the Jaccard index of known overlaps")
    func jaccard() {
        func square(_ x: Double, _ y: Double, _ s: Double) -> Quadrilateral {
            Quadrilateral([Point(x: x, y: y), Point(x: x + s, y: y), Point(x: x + s, y: y + s), Point(x: x, y: y + s)])
        }
        #expect(square(0, 0, 10).jaccardIndex(with: square(0, 0, 10)) == 1)
        #expect(square(0, 0, 10).jaccardIndex(with: square(20, 0, 10)) == 0)
        // Half-overlapping squares: 50 / 150.
        #expect((square(0, 0, 10).jaccardIndex(with: square(5, 0, 10)) - 1.0 / 3).magnitude < 1e-9)
        #expect((square(0, 0, 10).jaccardIndex(with: square(2.5, 2.5, 5)) - 0.25).magnitude < 1e-9)
    }
}
