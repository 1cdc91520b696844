import Foundation
import Logging
import Station
import Testing

@Suite struct ConfigurationTests {
    @Test func emptyFileMeansDefaults() throws {
        let config = try Configuration.parse("")
        #expect(config == Configuration())
        #expect(config.reader.transmitTimeout == .seconds(5))
        #expect(config.log.level == .info)
    }

    @Test func fullFileParses() throws {
        let config = try Configuration.parse("""
            station:
              name: lobby-1
            log:
              level: debug
              format: json
            reader:
              name: "Virtual PCD"
              transmit-timeout-ms: 2500
              exclusive: false
            """)
        #expect(config.station.name == "lobby-1")
        #expect(config.log.level == .debug)
        #expect(config.log.format == .json)
        #expect(config.reader.name == "Virtual PCD")
        #expect(config.reader.transmitTimeout == .milliseconds(2500))
        #expect(config.reader.exclusive == false)
    }

    @Test func theShippedExampleIsValid() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/idkiosk.yaml").path
        let config = try Configuration.load(path: example)
        #expect(config.station.name != "")
    }

    @Test(arguments: [
        ("reader:\n  transmit-timeout-ms: 0", "reader.transmit-timeout-ms", "'0' is not allowed; allowed: 100 to 60000"),
        ("reader:\n  transmit-timeout-ms: soon", "reader.transmit-timeout-ms", "'soon' should be a whole number"),
        ("log:\n  level: loud", "log.level", "'loud' is not allowed; allowed: trace, debug, info, notice, warning, error, critical"),
        ("log:\n  format: xml", "log.format", "allowed: journal, json"),
        ("reader:\n  exclusive: maybe", "reader.exclusive", "allowed: true, false"),
        ("station:\n  name: \"lobby 1\"", "station.name", "'lobby 1' is not allowed"),
        ("reader:\n  nmae: x", "reader.nmae", "unknown key; allowed here: name, transmit-timeout-ms, exclusive"),
        ("printer: {}", "printer", "unknown key; allowed here: station, log, reader, camera, flash"),
        ("flash:\n  maximum-on-ms: 5", "flash.maximum-on-ms", "'5' is not allowed; allowed: 10 to 10000"),
        ("reader: 5", "reader", "should be a section"),
    ])
    func errorsNameKeyValueAndWhatIsAllowed(yaml: String, key: String, fragment: String) {
        let error = #expect(throws: ConfigurationError.self) { try Configuration.parse(yaml, file: "test.yaml") }
        #expect(error?.key == key)
        #expect(error?.description.contains("test.yaml: \(key)") == true, "\(String(describing: error))")
        #expect(error?.description.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test func syntaxErrorsSayWhere() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.parse("reader:\n  name: [unclosed\n", file: "bad.yaml")
        }
        guard case .syntax(let why)? = error?.problem else {
            Issue.record("expected a syntax error, got \(String(describing: error))")
            return
        }
        #expect(why.contains("line"))
    }

    @Test func duplicateKeysAreRejected() {
        #expect(throws: ConfigurationError.self) { try Configuration.parse("log:\n  level: info\n  level: debug\n") }
    }

    @Test func missingFileIsNamed() {
        let error = #expect(throws: ConfigurationError.self) { try Configuration.load(path: "/nonexistent/idkiosk.yaml") }
        #expect(error?.problem == .fileNotFound)
        #expect(error?.description.contains("/nonexistent/idkiosk.yaml") == true)
    }

    @Test func cameraAndFlashSectionsParse() throws {
        let config = try Configuration.parse("""
            camera:
              name: "card:vivid"
            flash:
              chip: idkiosk-rig
              line: FLASH_LED
              maximum-on-ms: 500
              simulated: false
            """)
        #expect(config.camera.name == "card:vivid")
        #expect(config.flash.chip == "idkiosk-rig")
        #expect(config.flash.line == "FLASH_LED")
        #expect(config.flash.maximumOnMilliseconds == 500)
        #expect(config.flash.simulated == false)
        #expect(Configuration().flash.maximumOnMilliseconds == 2000)
        #expect(Configuration().camera.name == "")
    }

    @Test func badCameraAndFlashValuesNameKeyValueAndWhatIsAllowed() {
        func problem(_ yaml: String) -> String {
            do {
                _ = try Configuration.parse(yaml)
                return "parsed"
            } catch {
                return error.description
            }
        }
        let camera = problem("camera:\n  name: video0\n")
        #expect(camera.contains("camera.name") && camera.contains("'video0'") && camera.contains("bus:POSITION"))
        let limit = problem("flash:\n  maximum-on-ms: 60000\n")
        #expect(limit.contains("flash.maximum-on-ms") && limit.contains("'60000'") && limit.contains("10 to 10000"))
        let half = problem("flash:\n  chip: gpiochip0\n")
        #expect(half.contains("flash.line") && half.contains("set flash.chip and flash.line together"))
        let unknown = problem("flash:\n  pin: 3\n")
        #expect(unknown.contains("flash.pin") && unknown.contains("unknown key") && unknown.contains("maximum-on-ms"))
        let simulated = problem("flash:\n  simulated: maybe\n")
        #expect(simulated.contains("flash.simulated") && simulated.contains("true, false"))
    }
}
