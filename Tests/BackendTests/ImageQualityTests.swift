import Backend
import Foundation
import Imaging
import KioskTestKit
import ReferenceBackend
import Testing
import Vision

/// Brightness and sharpness measured on real pixels of generated JPEGs.
@Suite struct ImageQualityTests {
    static let page = TestImages.page(width: 704, height: 448)
    static let blurred = TestImages.blurred(page, radius: 3, passes: 3)

    @Test func statisticsSeparateFineDarkAndBlurredPages() throws {
        let codec = JPEGCodec()
        func measure(_ image: LumaImage) throws -> LumaStatistics {
            var decoded = LumaImage()
            try codec.decodeLuma(codec.encode(image, quality: 90), into: &decoded)
            return LumaStatistics(decoded)
        }
        let fine = try measure(Self.page)
        let dark = try measure(TestImages.darkened(Self.page, percent: 12))
        let blurred = try measure(Self.blurred)
        let defaults = ImageQualityThresholds()
        #expect(fine.meanLuma > defaults.minimumMeanLuma && fine.meanLuma < defaults.maximumMeanLuma)
        #expect(fine.laplacianVariance > 10 * defaults.minimumSharpness)
        #expect(dark.meanLuma < defaults.minimumMeanLuma)
        #expect(blurred.laplacianVariance < defaults.minimumSharpness)
        #expect(abs(blurred.meanLuma - fine.meanLuma) < 10)
    }

    /// Uploads one FRONT image and finalizes; the part's feedback and the result's image checks.
    func upload(_ jpeg: Data, thresholds: ImageQualityThresholds = .init()) async throws -> (PartResponse, WorkflowExecutionDetails) {
        try await LoopbackBackend.with(configure: { $0.imageQuality = thresholds }) { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(key: 10011))
            let id = try account.credential(.ID)
            let execution = ExecutionRef(account)
            let part = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: jpeg))
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
            _ = try await client.finalize(execution)
            return (part, try await client.retrieve(execution))
        }
    }

    func check(_ details: WorkflowExecutionDetails, _ id: String) -> CapabilityResult? {
        details.capabilities.imageChecks.first { $0.id == id }
    }

    @Test func finePagePasses() async throws {
        let (part, details) = try await upload(TestImages.jpeg(Self.page))
        #expect(part.usability.decision == .PASSED)
        #expect(part.usability.reason == nil)
        #expect(check(details, "brightness-FRONT")?.decision == .PASSED)
        #expect(check(details, "sharpness-FRONT")?.decision == .PASSED)
        #expect(details.decision.type == .PASSED)
    }

    @Test func tooDarkPageIsRejected() async throws {
        let (part, details) = try await upload(TestImages.jpeg(TestImages.darkened(Self.page, percent: 12)))
        #expect(part.usability.decision == .REJECTED)
        #expect(part.usability.reason == "TOO_DARK")
        #expect(check(details, "brightness-FRONT")?.reason == "TOO_DARK")
        #expect(details.decision.type == .REJECTED)
    }

    @Test func blurredPageIsRejected() async throws {
        let (part, details) = try await upload(TestImages.jpeg(Self.blurred))
        #expect(part.usability.reason == "BLURRED")
        #expect(check(details, "sharpness-FRONT")?.reason == "BLURRED")
        #expect(check(details, "brightness-FRONT")?.decision == .PASSED)
        #expect(details.decision.type == .REJECTED)
    }

    @Test func thresholdsComeFromConfiguration() async throws {
        // The same blurred page passes a backend configured for a softer camera.
        let lenient = ImageQualityThresholds(minimumSharpness: 0)
        let (part, _) = try await upload(TestImages.jpeg(Self.blurred), thresholds: lenient)
        #expect(part.usability.decision == .PASSED)
        let strict = ImageQualityThresholds(minimumMeanLuma: 190)
        let (dark, _) = try await upload(TestImages.jpeg(Self.page), thresholds: strict)
        #expect(dark.usability.reason == "TOO_DARK")
    }

    @Test func headerOnlyJPEGIsUndecodableAndHugeDeclaredSizeIsNotDecoded() async throws {
        let (part, details) = try await upload(Fixtures.jpegHeader(width: 1280, height: 800))
        #expect(part.usability.reason == "JPEG_UNDECODABLE")
        #expect(check(details, "brightness-FRONT")?.decision == .NOT_EXECUTED)
        let (huge, _) = try await upload(Fixtures.jpegHeader(width: 60_000, height: 60_000))
        #expect(huge.usability.reason == "TOO_MANY_PIXELS")
    }
}
