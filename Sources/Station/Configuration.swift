import Foundation
public import Logging
import Yams

/// The station's configuration, read from one YAML file and validated as a whole.
///
/// Every key is optional and has a default, so a technician can run diagnostics on a
/// fresh machine with no file; a key that is present must be known and valid, so a
/// typo never silently falls back to a default. `deploy/idkiosk.yaml` documents
/// every key.
public struct Configuration: Hashable, Sendable {
    /// Where `idkiosk` looks when `--config` is not given.
    public static let defaultPath = "/etc/idkiosk/idkiosk.yaml"

    public var station = StationSection()
    public var log = LogSection()
    public var reader = ReaderSection()
    public var camera = CameraSection()
    public var flash = FlashSection()
    public var journey = JourneySection()
    public var backend = BackendSection()
    public var display = DisplaySection()
    public var status = StatusSection()
    public var chip = ChipSection()
    public var vision = VisionSection()

    public init() {}

    public struct StationSection: Hashable, Sendable {
        /// Shown in diagnostics and sent to the backend; 1 to 64 letters, digits, `-`, `_`, `.`.
        public var name = "idkiosk"
    }

    public struct LogSection: Hashable, Sendable {
        public var level: Logger.Level = .info
        public var format: LogFormat = .journal
    }

    public enum LogFormat: String, Hashable, Sendable, CaseIterable {
        case journal, json
    }

    public struct ReaderSection: Hashable, Sendable {
        /// Part of the PC/SC reader name to use (case-insensitive); empty takes the first reader.
        public var name = ""
        /// Limit on one APDU exchange.
        public var transmitTimeout: Duration = .seconds(5)
        /// Whether the station holds the card alone while reading.
        public var exclusive = true
    }

    public struct CameraSection: Hashable, Sendable {
        /// The camera: a node (`/dev/video0`), a udev link (`/dev/v4l/by-id/...`),
        /// `bus:` and its bus position or `card:` and its name; empty takes the first
        /// capture device; `file:PATH` replays a recording (Y4M, MJPEG or a folder of JPEGs).
        public var name = ""
        /// Frames per second of the display's preview (never the full-resolution capture).
        public var previewFramesPerSecond = 5
        /// The least sharpness of an automatic capture (variance of the Laplacian of the luma).
        public var minimumSharpness = 100
    }

    public struct FlashSection: Hashable, Sendable {
        /// The GPIO chip's label (`gpiodetect`), `gpiochipN` or a path; empty when no flash is wired.
        public var chip = ""
        /// The line's name (`gpioinfo`); set together with `chip`.
        public var line = ""
        /// The hard limit for one on period of the LED.
        public var maximumOnMilliseconds = 2000
        /// Use a simulated line instead of GPIO (machines without the LED board).
        public var simulated = false
    }

    /// Reads and validates `path`.
    /// - Throws: `ConfigurationError` naming the key, the value and what is allowed.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConfigurationError(file: path, key: "", problem: .fileNotFound)
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, key: "", problem: .unreadable("\(error.localizedDescription)"))
        }
        return try parse(text, file: path)
    }

    /// Loads `path` when given; otherwise the default file if it exists, or the defaults.
    public static func resolve(explicitPath: String?) throws(ConfigurationError) -> Configuration {
        if let explicitPath { return try load(path: explicitPath) }
        if FileManager.default.fileExists(atPath: defaultPath) { return try load(path: defaultPath) }
        return Configuration()
    }

    /// Parses YAML text.
    public static func parse(_ text: String, file: String = "<config>") throws(ConfigurationError) -> Configuration {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError(file: file, key: "", problem: .syntax("\(error)".trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        var config = Configuration()
        guard let root else { return config }  // an empty file means all defaults
        let r = NodeReader(file: file)
        let top = try r.mapping(root, at: "", allowed: ["station", "log", "reader", "camera", "flash", "vision"] + Self.serveSections)

        if let node = top["station"] {
            let station = try r.mapping(node, at: "station", allowed: ["name"])
            if let name = station["name"] {
                config.station.name = try r.string(name, at: "station.name", allowed: "1-64 of A-Z a-z 0-9 - _ .") {
                    (1...64).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
                }
            }
        }
        if let node = top["log"] {
            let log = try r.mapping(node, at: "log", allowed: ["level", "format"])
            if let level = log["level"] {
                config.log.level = try r.choice(level, at: "log.level", Logger.Level.allCases.map(\.rawValue)).flatMap(Logger.Level.init(rawValue:))!
            }
            if let format = log["format"] {
                config.log.format = try r.choice(format, at: "log.format", LogFormat.allCases.map(\.rawValue)).flatMap(LogFormat.init(rawValue:))!
            }
        }
        if let node = top["reader"] {
            let reader = try r.mapping(node, at: "reader", allowed: ["name", "transmit-timeout-ms", "exclusive"])
            if let name = reader["name"] {
                config.reader.name = try r.string(name, at: "reader.name", allowed: "a reader name or part of one") { $0.count <= 128 }
            }
            if let timeout = reader["transmit-timeout-ms"] {
                config.reader.transmitTimeout = .milliseconds(try r.integer(timeout, at: "reader.transmit-timeout-ms", in: 100...60_000))
            }
            if let exclusive = reader["exclusive"] {
                config.reader.exclusive = try r.boolean(exclusive, at: "reader.exclusive")
            }
        }
        if let node = top["camera"] {
            let camera = try r.mapping(node, at: "camera", allowed: ["name", "preview-fps", "min-sharpness"])
            if let name = camera["name"] {
                config.camera.name = try r.string(
                    name, at: "camera.name", allowed: "\"\" (the first camera), a path under /dev, bus:POSITION, card:NAME or file:PATH"
                ) { Self.isCameraName($0) }
            }
            if let fps = camera["preview-fps"] {
                config.camera.previewFramesPerSecond = try r.integer(fps, at: "camera.preview-fps", in: 1...15)
            }
            if let sharpness = camera["min-sharpness"] {
                config.camera.minimumSharpness = try r.integer(sharpness, at: "camera.min-sharpness", in: 1...100_000)
            }
        }
        if let node = top["vision"] { try parseVision(node, into: &config, r) }
        if let node = top["flash"] {
            let flash = try r.mapping(node, at: "flash", allowed: ["chip", "line", "maximum-on-ms", "simulated"])
            if let chip = flash["chip"] {
                config.flash.chip = try r.string(chip, at: "flash.chip", allowed: "a GPIO chip label, gpiochipN or a path (up to 64 characters)") {
                    $0.count <= 64
                }
            }
            if let line = flash["line"] {
                config.flash.line = try r.string(line, at: "flash.line", allowed: "a GPIO line name (up to 64 characters)") { $0.count <= 64 }
            }
            if let limit = flash["maximum-on-ms"] {
                config.flash.maximumOnMilliseconds = try r.integer(limit, at: "flash.maximum-on-ms", in: 10...10_000)
            }
            if let simulated = flash["simulated"] {
                config.flash.simulated = try r.boolean(simulated, at: "flash.simulated")
            }
            // A chip without a line (or the reverse) is half a wiring description: refuse it.
            if config.flash.chip.isEmpty != config.flash.line.isEmpty {
                let missing = config.flash.chip.isEmpty ? "flash.chip" : "flash.line"
                throw ConfigurationError(
                    file: file, key: missing, value: "", problem: .invalidValue(allowed: "set flash.chip and flash.line together, or neither"))
            }
        }
        try parseServeSections(top, reader: r, into: &config)
        return config
    }
}

extension Configuration {
    /// Whether `name` is a way to name a camera: empty, a path, `bus:X` or `card:X`.
    public static func isCameraName(_ name: String) -> Bool {
        guard name.count <= 256 else { return false }
        if name.isEmpty || name.hasPrefix("/") { return true }
        for prefix in ["bus:", "card:", "file:"] where name.hasPrefix(prefix) { return name.count > prefix.count }
        return false
    }
}

/// Reads typed values out of YAML nodes, with errors that name the key.
struct NodeReader {
    let file: String

    func mapping(_ node: Node, at key: String, allowed: [String]) throws(ConfigurationError) -> [String: Node] {
        guard case .mapping(let mapping) = node else {
            throw ConfigurationError(file: file, key: key, value: node.scalar?.string, problem: .wrongType(expected: "a section (key: value lines)"))
        }
        var result: [String: Node] = [:]
        for (k, v) in mapping {
            guard let name = k.scalar?.string, allowed.contains(name) else {
                let full = key.isEmpty ? (k.scalar?.string ?? "?") : "\(key).\(k.scalar?.string ?? "?")"
                throw ConfigurationError(file: file, key: full, problem: .unknownKey(allowed: allowed))
            }
            result[name] = v
        }
        return result
    }

    func scalar(_ node: Node, at key: String, expected: String) throws(ConfigurationError) -> String {
        guard let s = node.scalar?.string else {
            throw ConfigurationError(file: file, key: key, problem: .wrongType(expected: expected))
        }
        return s
    }

    func string(_ node: Node, at key: String, allowed: String, valid: (String) -> Bool) throws(ConfigurationError) -> String {
        let s = try scalar(node, at: key, expected: "text")
        guard valid(s) else { throw ConfigurationError(file: file, key: key, value: s, problem: .invalidValue(allowed: allowed)) }
        return s
    }

    func choice(_ node: Node, at key: String, _ options: [String]) throws(ConfigurationError) -> String? {
        let s = try scalar(node, at: key, expected: "one of " + options.joined(separator: ", "))
        guard options.contains(s) else {
            throw ConfigurationError(file: file, key: key, value: s, problem: .invalidValue(allowed: options.joined(separator: ", ")))
        }
        return s
    }

    func integer(_ node: Node, at key: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        let s = try scalar(node, at: key, expected: "a whole number")
        guard let n = Int(s) else { throw ConfigurationError(file: file, key: key, value: s, problem: .wrongType(expected: "a whole number")) }
        guard range.contains(n) else {
            throw ConfigurationError(file: file, key: key, value: s, problem: .invalidValue(allowed: "\(range.lowerBound) to \(range.upperBound)"))
        }
        return n
    }

    func boolean(_ node: Node, at key: String) throws(ConfigurationError) -> Bool {
        let s = try scalar(node, at: key, expected: "true or false")
        switch s {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw ConfigurationError(file: file, key: key, value: s, problem: .invalidValue(allowed: "true, false"))
        }
    }
}
