import Display
import Foundation
import FuzzDriver
import Station

// idkiosk-fuzz-station: what the station's composition reads from outside, one input at a
// time: a display's commands and the technician's configuration file. A binary of its own
// because it links Station: libFuzzer scans every coverage counter of its binary after each
// input, and Station's dependencies (NIO, Hummingbird, the HTTP client) have about nine times
// the counters of idkiosk-fuzz's parsers, which would slow those as much.
//
// `idkiosk-fuzz-station TARGET [libFuzzer options] [CORPUS...]`, or
// `idkiosk-fuzz-station TARGET FILE...` in a normal build (FuzzDriver).

/// One input to one target; never throws or traps on bad input (errors are values).
func run(_ target: String, _ bytes: [UInt8]) {
    switch target {
    case "display-command":
        // A text frame from a display (browser or Custom UI) as the display server decodes
        // it; a command it accepts must survive its own encoding unchanged.
        guard let input = try? DisplayInput(json: bytes) else { return }
        let encoded = try? JSONEncoder().encode(input)
        let again = encoded.flatMap { try? DisplayInput(json: $0) }
        precondition(again == input, "display-command: \(input) does not decode from its own JSON")
    case "config":
        // The station's configuration file as `idkiosk` loads it (Yams, then every key
        // checked), and its error as a technician reads it.
        do throws(ConfigurationError) {
            _ = try Configuration.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml")
        } catch {
            _ = error.description
        }
    default:
        break  // FuzzDriver.main takes only the targets listed below
    }
}

FuzzDriver.main(name: "idkiosk-fuzz-station", targets: ["display-command", "config"], run: run)
