import Foundation
import Station
import Capture
import Display
import Testing
import Vision

/// The sections `idkiosk serve` reads: defaults, a full file, and errors that name the key.
@Suite struct ServeConfigurationTests {
    @Test func defaultsAreALoopbackStationAgainstTheReferenceBackend() throws {
        let config = try Configuration.parse("")
        #expect(config.display.host == "127.0.0.1")
        #expect(config.status.port != config.display.port)
        #expect(config.journey.start == [.card, .touch])
        #expect(config.backend.offline == "queue")
    }

    /// An Authentication starts with a display's reference only: `start` defaults to
    /// `[reference]` with it, and anything else with it, or `reference` without it, names the key.
    @Test func anAuthenticationStationStartsByReferenceOnly() throws {
        let config = try Configuration.parse("journey:\n  workflow: authentication\n")
        #expect(config.journey.workflow == .authentication)
        #expect(config.journey.start == [.reference])
        #expect(try Configuration.parse("journey:\n  workflow: authentication\n  start: [reference]\n").journey.start == [.reference])
        for text in ["journey:\n  workflow: authentication\n  start: [touch]\n", "journey:\n  workflow: authentication\n  start: [reference, card]\n",
                     "journey:\n  start: [reference]\n", "journey:\n  workflow: fastfill\n  start: [touch, reference]\n"] {
            let error = #expect(throws: ConfigurationError.self, "\(text)") { try Configuration.parse(text) }
            #expect(error?.key == "journey.start", "\(text)")
        }
    }

    @Test func serveSectionsParse() throws {
        let config = try Configuration.parse("""
            camera:
              name: file:/srv/recordings
              preview-fps: 8
            journey:
              start: [touch]
              workflow: id-card-chip-face
              countries: [D, AUT]
              inactivity-s: 45
            backend:
              url: https://eu.backend.example
              client-id: station-7
              client-secret-file: /etc/idkiosk/client.secret
              data-center: EU
              offline: refuse
              spki-pins: ["47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="]
              trust-roots: /etc/idkiosk/backend-ca.pem
            display:
              host: 0.0.0.0
              port: 9000
              token-file: /etc/idkiosk/display.token
              language: de
              theme:
                primary: "#112233"
                dark: on
            status:
              port: 9001
            """)
        #expect(config.camera.name == "file:/srv/recordings")
        #expect(config.camera.previewFramesPerSecond == 8)
        #expect(config.journey.start == [.touch])
        #expect(config.journey.workflow == .idCardChipFace)
        #expect(config.journey.countries == ["D", "AUT"])
        #expect(config.journey.inactivityTimeout == .seconds(45))
        #expect(config.backend.url == "https://eu.backend.example")
        #expect(config.backend.offline == "refuse")
        #expect(config.backend.spkiPins == ["47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="])
        #expect(config.backend.trustRoots == "/etc/idkiosk/backend-ca.pem")
        #expect(config.display.theme.primary == "#112233")
        #expect(config.display.theme.dark == "on")
        #expect(config.status.port == 9001)
    }

    /// Dark mode gets dark colours: `dark: on` with no colours named is a dark page, not the
    /// light colours again; each dark colour, the high-contrast theme and the tries before
    /// staff is asked are keys of their own, and reach the display and the controller.
    @Test func darkModeHasDarkColoursAndTheTriesReachTheController() throws {
        let defaults = try Configuration.parse("display:\n  theme:\n    dark: on\n")
        let theme = defaults.display.theme.display
        #expect(theme.appearance == .dark)
        #expect(theme.background.dark == "#0b1020" && theme.text.dark == "#f3f4f6" && theme.primary.dark == "#6b9bff")
        #expect(theme.contrast == .system)
        #expect(StationLoop.Settings(defaults).controller.maxAttemptsPerPart == 3)

        let config = try Configuration.parse("""
            journey:
              tries: 2
            display:
              theme:
                dark-primary: "#a0c4ff"
                dark-background: "#000000"
                dark-text: "#ffffff"
                high-contrast: on
            """)
        #expect(config.display.theme.display.background == .init("#ffffff", dark: "#000000"))
        #expect(config.display.theme.display.primary.dark == "#a0c4ff")
        #expect(config.display.theme.display.contrast == .high)
        #expect(StationLoop.Settings(config).controller.maxAttemptsPerPart == 2)
        for (text, key) in [("journey:\n  tries: 0\n", "journey.tries"), ("display:\n  theme:\n    dark-text: white\n", "display.theme.dark-text"),
                            ("display:\n  theme:\n    high-contrast: yes please\n", "display.theme.high-contrast")] {
            let error = #expect(throws: ConfigurationError.self, "\(text)") { try Configuration.parse(text) }
            #expect(error?.key == key, "\(text)")
        }
        #expect(StationLoop.Settings(try Configuration.parse("backend:\n  offline: refuse\n")).refuseOffline)
        #expect(!StationLoop.Settings(defaults).refuseOffline)
    }

    @Test func theVisionSectionSetsTheFaceGuidanceAndTheLivenessChecks() throws {
        let config = try Configuration.parse("""
            vision:
              face:
                min-width-percent: 25
                max-width-percent: 60
                max-centre-offset-percent: 12
                max-roll: 8
                max-yaw: 20
                min-response-percent: 7
                min-correlation-percent: 90
                min-parallax-permille: 15
                min-turn: 8
                match-threshold-permille: 550
                match-review-permille: 30
            """)
        var settings = CameraCapture.Settings(name: "")
        config.vision.face.apply(to: &settings)
        #expect(settings.faceGuidance.minimumWidth == 0.25 && settings.faceGuidance.maximumWidth == 0.6)
        #expect(settings.faceGuidance.maximumCentreOffset == 0.12)
        #expect(settings.faceGuidance.maximumRoll == 8 && settings.faceGuidance.maximumYaw == 20)
        #expect(settings.liveness.minimumResponse == 0.07 && settings.liveness.minimumCorrelation == 0.9)
        #expect(settings.liveness.minimumParallax == 0.015 && settings.liveness.minimumTurn == 8)
        #expect(settings.faceMatch.threshold == 0.55 && settings.faceMatch.reviewBand == 0.03)
        // The defaults are the figures of docs/faces.md.
        var defaults = CameraCapture.Settings(name: "")
        Configuration().vision.face.apply(to: &defaults)
        #expect(defaults.faceGuidance == FaceGuidance.Settings() && defaults.liveness == LivenessAnalyzer.Settings())
        #expect(defaults.faceMatch == FaceMatcher.Settings())
    }

    @Test func theVisionSectionSetsTheDocumentGuidance() throws {
        let config = try Configuration.parse("""
            vision:
              models: /var/lib/idkiosk/models
              min-analysed-fps: 2
              document:
                field-of-view: 75
                min-area-percent: 20
                max-centre-offset-percent: 10
                max-tilt: 8
                max-rotation: 5
                still-frames: 4
                max-corner-motion-permille: 10
                min-sharpness: 90
                min-page-sharpness: 6
                min-page-sharpness-balance-percent: 40
                ready-frames: 2
                mrz-timeout: 9
            """)
        #expect(config.vision.models == "/var/lib/idkiosk/models")
        #expect(config.vision.minimumAnalysedFramesPerSecond == 2)
        #expect(try Configuration.parse("").vision.minimumAnalysedFramesPerSecond == CameraCapture.Settings(name: "").minimumAnalysedFramesPerSecond)
        var settings = CameraCapture.Settings(name: "")
        config.vision.document.apply(to: &settings)
        #expect(settings.documentFinder.horizontalFieldOfView == 75)
        #expect(settings.documentGuidance.minimumArea == 0.2)
        #expect(settings.documentGuidance.maximumCentreOffset == 0.1)
        #expect(settings.documentGuidance.maximumTilt == 8)
        #expect(settings.documentGuidance.maximumRotation == 5)
        #expect(settings.documentGuidance.stillFrames == 4)
        #expect(settings.documentGuidance.maximumCornerMotion == 0.01)
        #expect(settings.documentGuidance.minimumSharpness == 90)
        #expect(settings.documentGuidance.minimumPageSharpness == 6)
        #expect(settings.documentGuidance.minimumPageSharpnessBalance == 0.4)
        #expect(settings.documentReadyFrames == 2)
        #expect(settings.mrzTimeout == .seconds(9))
        // The defaults are Vision's own.
        var defaults = CameraCapture.Settings(name: "")
        let untouched = defaults
        try Configuration.parse("").vision.document.apply(to: &defaults)
        #expect(defaults.documentGuidance == untouched.documentGuidance)
        #expect(defaults.documentFinder == untouched.documentFinder)
        #expect(defaults.mrzTimeout == untouched.mrzTimeout)
    }

    @Test(arguments: [
        ("journey:\n  workflow: selfie-only\n", "journey.workflow"),
        ("journey:\n  start: [card, wave]\n", "journey.start"),
        ("journey:\n  countries: [germany]\n", "journey.countries"),
        ("backend:\n  url: ftp://example.org\n", "backend.url"),
        ("backend:\n  data-center: MARS\n", "backend.data-center"),
        ("display:\n  host: 0.0.0.0\n", "display.token-file"),
        ("display:\n  theme:\n    primary: blue\n", "display.theme.primary"),
        ("display:\n  port: 8401\n", "status.port"),
        ("status:\n  port: 70000\n", "status.port"),
        ("chip:\n  trust: relative/dir\n", "chip.trust"),
        ("backend:\n  url: https://b.example\n  spki-pins: [not-a-pin]\n", "backend.spki-pins"),
        ("backend:\n  url: http://b.example\n  spki-pins: [\"47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\"]\n", "backend.spki-pins"),
        ("journey:\n  bogus: 1\n", "journey.bogus"),
        ("vision:\n  models: models\n", "vision.models"),
        ("vision:\n  document:\n    max-tilt: 90\n", "vision.document.max-tilt"),
        ("vision:\n  min-analysed-fps: 0\n", "vision.min-analysed-fps"),
        ("vision:\n  document:\n    min-area: 12\n", "vision.document.min-area"),
        ("vision:\n  face:\n    max-roll: 90\n", "vision.face.max-roll"),
        ("vision:\n  face:\n    min-width-percent: 60\n    max-width-percent: 40\n", "vision.face.min-width-percent"),
        ("vision:\n  face:\n    relief: 2\n", "vision.face.relief"),
    ])
    func errorsNameTheKey(yaml: String, key: String) {
        do {
            _ = try Configuration.parse(yaml, file: "test.yaml")
            Issue.record("accepted \(yaml)")
        } catch {
            #expect(error.key == key, "\(error)")
        }
    }
}
