import Foundation
import Station
import Testing

/// The sections `idkiosk serve` reads: defaults, a full file, and errors that name the key.
@Suite struct ServeConfigurationTests {
    @Test func defaultsAreALoopbackStationAgainstTheReferenceBackend() throws {
        let config = try Configuration.parse("")
        #expect(config.display.host == "127.0.0.1")
        #expect(config.status.port != config.display.port)
        #expect(config.journey.start == [.card, .touch])
        #expect(config.backend.offline == "queue")
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
