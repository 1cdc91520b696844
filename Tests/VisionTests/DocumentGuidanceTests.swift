import Testing
import Vision

/// The guidance order, fed observations and asserted by the states it returns.
@Suite("Document guidance")
struct DocumentGuidanceTests {
    static let still = Quadrilateral([Point(x: 400, y: 200), Point(x: 880, y: 200), Point(x: 880, y: 500), Point(x: 400, y: 500)])

    static func found(
        whole: Bool = true, area: Double = 0.3, offset: Double = 0.02, tilt: Double = 2, rotation: Double = 1,
        sharpness: Double = 200, balance: Double = 0.6, quadrilateral: Quadrilateral = still
    ) -> DocumentObservation {
        DocumentObservation(
            width: 1280, height: 720,
            document: .init(
                quadrilateral: quadrilateral, documentClass: .td1, whole: whole, areaFraction: area, centreOffset: offset,
                pose: pose(tilt: tilt, rotation: rotation),
                quality: DocumentQuality(
                    sharpness: sharpness, glare: 0, glareOverMRZ: 0, glareOverPhoto: 0,
                    directional: DirectionalSharpness(least: sharpness / 10, balance: balance))))
    }

    static func pose(tilt: Double, rotation: Double) -> DocumentPose {
        var pose = DocumentPose(still, width: 1280, height: 720, focalLength: 1000)!
        pose.tiltDegrees = tilt
        pose.rotationDegrees = rotation
        return pose
    }

    @Test("each condition in the documented order, the first that applies winning")
    func order() {
        var guidance = DocumentGuidance()
        #expect(guidance.observe(DocumentObservation(width: 1280, height: 720, document: nil)) == .centerId)
        #expect(guidance.observe(Self.found(whole: false, area: 0.05, offset: 0.4, tilt: 40)) == .tooClose)
        #expect(guidance.observe(Self.found(area: 0.05, offset: 0.4, tilt: 40)) == .moveCloser)
        #expect(guidance.observe(Self.found(offset: 0.4, tilt: 40)) == .centerId)
        #expect(guidance.observe(Self.found(tilt: 40, rotation: 30)) == .tilt(current: 40, target: 15))
        #expect(guidance.observe(Self.found(rotation: -30)) == .holdStraight)
        #expect(guidance.observe(Self.found(sharpness: 10)) == .holdStill)
        // Sharp across, blurred along the way it moved.
        #expect(guidance.observe(Self.found(sharpness: 900, balance: 0.1)) == .holdStill)
        #expect(guidance.observe(Self.found()) == .ready)
    }

    @Test("ready only after the corners stayed still over the last frames")
    func stillness() {
        var guidance = DocumentGuidance()
        #expect(guidance.observe(Self.found()) == .holdStill)
        #expect(guidance.observe(Self.found()) == .holdStill)
        #expect(guidance.observe(Self.found()) == .ready)
        let moved = Quadrilateral(Self.still.corners.map { Point(x: $0.x + 30, y: $0.y) })
        // The last three frames include the old position twice, then once, then not at all.
        #expect(guidance.observe(Self.found(quadrilateral: moved)) == .holdStill)
        #expect(guidance.observe(Self.found(quadrilateral: moved)) == .holdStill)
        #expect(guidance.observe(Self.found(quadrilateral: moved)) == .ready)
        // Losing the document forgets the history.
        #expect(guidance.observe(DocumentObservation(width: 1280, height: 720, document: nil)) == .centerId)
        #expect(guidance.observe(Self.found()) == .holdStill)
    }
}
