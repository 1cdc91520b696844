import Backend
public import Display
import Foundation
import Yams

extension Configuration {
    /// The sections only `idkiosk serve` reads.
    static let serveSections = ["journey", "backend", "display", "status", "chip"]

    /// The journeys a station offers: which credentials and parts.
    public enum WorkflowPreset: String, Hashable, Sendable, CaseIterable {
        /// Passport data page, its chip, then the face (Identity Verification).
        case passportChipFace = "passport-chip-face"
        /// Identity card front and back, its chip, then the face.
        case idCardChipFace = "id-card-chip-face"
        /// A North American driving licence or identity card: its front, the PDF417 on its
        /// back read (`barcode` mode, the AAMVA record as extraction data), then the face.
        case usDLBarcodeFace = "us-dl-barcode-face"
        /// Passport data page and chip, no face: extraction only (seed 002 Fastfill).
        case fastfill
        /// The person's face against the face of their enrollment, a verification that
        /// passed earlier (seed 004 Authentication); a display starts it with the reference
        /// (`journey.start: [reference]`).
        case authentication
        /// The passport (data page and chip) or a Digital Identity on the person's phone
        /// (seed 000's `Jumio.Document.Digital`): the station shows the provider's hand-off
        /// as a QR code and waits for the backend to hear the provider's outcome. No face:
        /// the provider authenticates the person itself.
        case digitalIdentity = "digital-identity"
        /// A paper document (a utility bill, a bank statement) taken page by page with the
        /// camera: the backend's DOCUMENT credential, each page uploaded as `PAGE_<n>`.
        case document
    }

    public struct JourneySection: Hashable, Sendable {
        public var start: [StartTrigger] = [.card, .touch]
        public var workflow: WorkflowPreset = .passportChipFace
        /// ISO 3166 alpha-3 codes offered; one with `documents` of one type preselects.
        public var countries: [String] = []
        /// How long a step waits for the person before "are you still there?".
        public var inactivityTimeout: Duration = .seconds(60)
        /// How long "are you still there?" stays before the station wipes and returns to idle.
        public var inactivityGrace: Duration = .seconds(15)
        /// How long the result stays on screen before the station idles again.
        public var resultScreen: Duration = .seconds(12)
        /// How long the station waits for the backend's decision after finalising.
        public var decisionWait: Duration = .seconds(20)
        /// Tries of one step (a photo rejected or to retake, a help request, a chip key refused)
        /// before the station offers the simpler mode (the seeds' fallback) or, where there is
        /// none, asks the person to get a member of staff.
        public var tries = 3
        /// A journey's customer reference when its display names none: this, a dash, 8 random hex digits.
        public var referencePrefix = "kiosk"
        /// Where the backend calls back for each journey; empty: the backend's own setting.
        /// A display's `callbackUrl` must be on its origin.
        public var callbackURL = ""
        /// How the integrator's reports group this station's journeys; empty: none.
        public var reportingCriteria = ""
        /// The most pages of a paper document; the person ends it earlier with "that was the last page".
        public var maxPages = 10
    }

    public struct BackendSection: Hashable, Sendable {
        /// The verification backend's base URL; the reference backend by default.
        public var url = "http://127.0.0.1:8480"
        public var clientID = ""
        /// A root-only file holding the client secret (or a systemd credential path).
        public var clientSecretFile = ""
        /// The data center the station is registered in (US, EU, SG): it selects the base
        /// URL from ``dataCenterURLs`` when those are given, and a workflow the backend says
        /// lives in another one is refused.
        public var dataCenter = "EU"
        /// The backend's base URL in each data center (`backend.data-centers`); empty: `url`.
        public var dataCenterURLs: [String: String] = [:]
        public var workflowKey = 10
        /// Where undelivered parts wait, encrypted (SQLite, WAL).
        public var outbox = "/var/lib/idkiosk/outbox.sqlite"
        /// A root-only file of 32 random bytes (or a systemd credential path).
        public var outboxKeyFile = "/etc/idkiosk/outbox.key"
        /// When the backend is unreachable: `queue` (go on, deliver later) or `refuse` new journeys.
        public var offline = "queue"
        /// Public key pins (base64 SHA-256 of a SubjectPublicKeyInfo): an HTTPS backend whose
        /// validated chain holds none of them is refused (error B). Empty: no pinning.
        public var spkiPins: [String] = []
        /// The CA certificates (a PEM file or directory) HTTPS chains validate to when pinning;
        /// empty: the system's.
        public var trustRoots = ""

        /// The URL the station talks to: its data center's, or `url` when no data centers are listed.
        public var baseURL: String { dataCenterURLs[dataCenter] ?? url }
    }

    public struct DisplaySection: Hashable, Sendable {
        public var host = "127.0.0.1"
        public var port = 8400
        /// A file holding the token a display on another host must present; required off loopback.
        public var tokenFile = ""
        public var language = "en"
        public var theme = Theme()
    }

    /// The seeds' Theme: colours, logo and dark mode of the Default UI.
    public struct Theme: Hashable, Sendable, Codable {
        public var primary = "#0b5cad"
        public var background = "#ffffff"
        public var text = "#1b1f24"
        /// A PNG or SVG file shown on every screen; empty for none.
        public var logo = ""
        /// `auto` follows the display, `on` and `off` force it.
        public var dark = "auto"
        /// The colours in dark mode.
        public var darkPrimary = "#6b9bff"
        public var darkBackground = "#0b1020"
        public var darkText = "#f3f4f6"
        /// The high-contrast theme: `auto` when the display asks for more contrast (or the
        /// person turns it on at the screen), `on` always, `off` never on its own.
        public var highContrast = "auto"
    }

    public struct StatusSection: Hashable, Sendable {
        /// `/health` and `/metrics`; loopback unless a monitoring host must reach them.
        public var host = "127.0.0.1"
        public var port = 8401
    }

    public struct ChipSection: Hashable, Sendable {
        /// CSCA certificates (PEM files, ICAO master lists) for passive authentication.
        public var trust = "/etc/idkiosk/csca"
    }

    static func parseServeSections(_ top: [String: Node], reader r: NodeReader, into config: inout Configuration) throws(ConfigurationError) {
        if let node = top["journey"] {
            let journey = try r.mapping(
                node, at: "journey",
                allowed: [
                    "start", "workflow", "countries", "inactivity-s", "inactivity-grace-s", "result-s", "decision-wait-s", "tries", "reference-prefix",
                    "callback-url", "reporting-criteria", "max-pages",
                ])
            if let start = journey["start"] {
                config.journey.start = try r.list(start, at: "journey.start", StartTrigger.allCases.map(\.rawValue)).compactMap(StartTrigger.init(rawValue:))
            }
            if let workflow = journey["workflow"] {
                config.journey.workflow = try r.choice(workflow, at: "journey.workflow", WorkflowPreset.allCases.map(\.rawValue))
                    .flatMap(WorkflowPreset.init(rawValue:))!
            }
            // An Authentication needs the enrollment's reference, which only a display's
            // `startJourney` carries: a document on the reader or a bare touch cannot start one.
            if config.journey.workflow == .authentication {
                if journey["start"] == nil { config.journey.start = [.reference] }
                guard config.journey.start == [.reference] else {
                    throw ConfigurationError(
                        file: r.file, key: "journey.start", value: config.journey.start.map(\.rawValue).joined(separator: ", "),
                        problem: .invalidValue(allowed: "[reference] with journey.workflow authentication"))
                }
            } else if config.journey.start.contains(.reference) {
                throw ConfigurationError(
                    file: r.file, key: "journey.start", value: "reference",
                    problem: .invalidValue(allowed: "card, touch (reference only with journey.workflow authentication)"))
            }
            if let countries = journey["countries"] {
                config.journey.countries = try r.strings(countries, at: "journey.countries", allowed: "ISO 3166 alpha-3 codes such as D, AUT, USA") {
                    (1...3).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isUppercase }
                }
            }
            if let v = journey["inactivity-s"] { config.journey.inactivityTimeout = .seconds(try r.integer(v, at: "journey.inactivity-s", in: 5...3600)) }
            if let v = journey["inactivity-grace-s"] {
                config.journey.inactivityGrace = .seconds(try r.integer(v, at: "journey.inactivity-grace-s", in: 3...600))
            }
            if let v = journey["result-s"] { config.journey.resultScreen = .seconds(try r.integer(v, at: "journey.result-s", in: 1...600)) }
            if let v = journey["decision-wait-s"] { config.journey.decisionWait = .seconds(try r.integer(v, at: "journey.decision-wait-s", in: 0...600)) }
            if let v = journey["tries"] { config.journey.tries = try r.integer(v, at: "journey.tries", in: 1...10) }
            // The references reach the backend: at most 100 characters with the 9 the station
            // adds, no personal data (the seeds' rule, docs/backend.md).
            if let v = journey["reference-prefix"] {
                config.journey.referencePrefix = try r.string(v, at: "journey.reference-prefix", allowed: "1 to 60 letters, digits, - _ . /") {
                    (1...60).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) }
                }
            }
            if let v = journey["reporting-criteria"] {
                config.journey.reportingCriteria = try r.string(v, at: "journey.reporting-criteria", allowed: "up to 100 characters without personal data") {
                    $0.isEmpty || (try? ReferenceCheck.check($0, field: "reportingCriteria")) != nil
                }
            }
            if let v = journey["callback-url"] {
                config.journey.callbackURL = try r.string(v, at: "journey.callback-url", allowed: "an http:// or https:// URL without user, password or fragment, or \"\"") {
                    $0.isEmpty || JourneyReferences.isCallbackURL($0)
                }
            }
            if let v = journey["max-pages"] { config.journey.maxPages = try r.integer(v, at: "journey.max-pages", in: 1...50) }
        }
        if let node = top["backend"] {
            let backend = try r.mapping(
                node, at: "backend",
                allowed: [
                    "url", "client-id", "client-secret-file", "data-center", "data-centers", "workflow-key", "outbox", "outbox-key-file", "offline",
                    "spki-pins", "trust-roots",
                ])
            let isBackendURL: (String) -> Bool = {
                guard let url = URL(string: $0), let scheme = url.scheme, url.host != nil else { return false }
                return scheme == "http" || scheme == "https"
            }
            if let v = backend["url"] {
                config.backend.url = try r.string(v, at: "backend.url", allowed: "an http:// or https:// URL", valid: isBackendURL)
            }
            if let v = backend["client-id"] { config.backend.clientID = try r.string(v, at: "backend.client-id", allowed: "up to 128 characters") { $0.count <= 128 } }
            if let v = backend["client-secret-file"] {
                config.backend.clientSecretFile = try r.string(v, at: "backend.client-secret-file", allowed: "an absolute path, or \"\" for none") {
                    $0.isEmpty || $0.hasPrefix("/")
                }
            }
            if let v = backend["data-center"] { config.backend.dataCenter = try r.choice(v, at: "backend.data-center", ["US", "EU", "SG"])! }
            if let node = backend["data-centers"] {
                let urls = try r.mapping(node, at: "backend.data-centers", allowed: ["US", "EU", "SG"])
                for (center, v) in urls {
                    config.backend.dataCenterURLs[center] = try r.string(
                        v, at: "backend.data-centers.\(center)", allowed: "an http:// or https:// URL", valid: isBackendURL)
                }
                // One source of the URL: the data centers' list, or `url`, not both.
                if backend["url"] != nil {
                    throw ConfigurationError(
                        file: r.file, key: "backend.url", value: config.backend.url,
                        problem: .invalidValue(allowed: "no backend.url with backend.data-centers (the data center selects the URL)"))
                }
                guard config.backend.dataCenterURLs[config.backend.dataCenter] != nil else {
                    throw ConfigurationError(
                        file: r.file, key: "backend.data-centers", value: config.backend.dataCenterURLs.keys.sorted().joined(separator: ", "),
                        problem: .invalidValue(allowed: "a URL for backend.data-center \(config.backend.dataCenter)"))
                }
            }
            if let v = backend["workflow-key"] { config.backend.workflowKey = try r.integer(v, at: "backend.workflow-key", in: 1...1_000_000) }
            if let v = backend["outbox"] { config.backend.outbox = try r.string(v, at: "backend.outbox", allowed: "an absolute path") { $0.hasPrefix("/") } }
            if let v = backend["outbox-key-file"] {
                config.backend.outboxKeyFile = try r.string(v, at: "backend.outbox-key-file", allowed: "an absolute path") { $0.hasPrefix("/") }
            }
            if let v = backend["offline"] { config.backend.offline = try r.choice(v, at: "backend.offline", ["queue", "refuse"])! }
            if let v = backend["spki-pins"] {
                config.backend.spkiPins = try r.strings(v, at: "backend.spki-pins", allowed: "base64 SHA-256 digests (44 characters)") {
                    Data(base64Encoded: $0)?.count == 32
                }
            }
            if let v = backend["trust-roots"] {
                config.backend.trustRoots = try r.string(v, at: "backend.trust-roots", allowed: "an absolute path, or \"\" for the system's") {
                    $0.isEmpty || $0.hasPrefix("/")
                }
            }
            if !config.backend.spkiPins.isEmpty, !config.backend.baseURL.hasPrefix("https://") {
                throw ConfigurationError(
                    file: r.file, key: "backend.spki-pins", value: config.backend.baseURL,
                    problem: .invalidValue(allowed: "pins only with an https:// backend.url"))
            }
        }
        if let node = top["display"] {
            let display = try r.mapping(node, at: "display", allowed: ["host", "port", "token-file", "language", "theme"])
            if let v = display["host"] { config.display.host = try r.string(v, at: "display.host", allowed: "an IP address or host name") { !$0.isEmpty && $0.count <= 253 } }
            if let v = display["port"] { config.display.port = try r.integer(v, at: "display.port", in: 1...65535) }
            if let v = display["token-file"] {
                config.display.tokenFile = try r.string(v, at: "display.token-file", allowed: "an absolute path, or \"\" for none") {
                    $0.isEmpty || $0.hasPrefix("/")
                }
            }
            if let v = display["language"] {
                config.display.language = try r.string(v, at: "display.language", allowed: "a language code such as en or de") {
                    (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") }
                }
            }
            if let node = display["theme"] {
                let theme = try r.mapping(
                    node, at: "display.theme",
                    allowed: ["primary", "background", "text", "logo", "dark", "dark-primary", "dark-background", "dark-text", "high-contrast"])
                let colours = [
                    ("primary", \Theme.primary), ("background", \.background), ("text", \.text),
                    ("dark-primary", \.darkPrimary), ("dark-background", \.darkBackground), ("dark-text", \.darkText),
                ]
                for (key, path) in colours {
                    if let v = theme[key] {
                        config.display.theme[keyPath: path] = try r.string(v, at: "display.theme.\(key)", allowed: "a colour as #rrggbb") {
                            $0.count == 7 && $0.first == "#" && $0.dropFirst().allSatisfy(\.isHexDigit)
                        }
                    }
                }
                if let v = theme["logo"] { config.display.theme.logo = try r.string(v, at: "display.theme.logo", allowed: "an absolute path") { $0.isEmpty || $0.hasPrefix("/") } }
                if let v = theme["dark"] { config.display.theme.dark = try r.choice(v, at: "display.theme.dark", ["auto", "on", "off"])! }
                if let v = theme["high-contrast"] {
                    config.display.theme.highContrast = try r.choice(v, at: "display.theme.high-contrast", ["auto", "on", "off"])!
                }
            }
            if config.display.tokenFile.isEmpty, !Self.isLoopback(config.display.host) {
                throw ConfigurationError(
                    file: r.file, key: "display.token-file", value: "",
                    problem: .invalidValue(allowed: "a token file whenever display.host is not a loopback address (\(config.display.host))"))
            }
        }
        if let node = top["status"] {
            let status = try r.mapping(node, at: "status", allowed: ["host", "port"])
            if let v = status["host"] { config.status.host = try r.string(v, at: "status.host", allowed: "an IP address or host name") { !$0.isEmpty && $0.count <= 253 } }
            if let v = status["port"] { config.status.port = try r.integer(v, at: "status.port", in: 1...65535) }
        }
        if config.status.port == config.display.port, top["status"] != nil || top["display"] != nil {
            throw ConfigurationError(
                file: r.file, key: "status.port", value: "\(config.status.port)", problem: .invalidValue(allowed: "a port other than display.port"))
        }
        if let node = top["chip"] {
            let chip = try r.mapping(node, at: "chip", allowed: ["trust"])
            if let v = chip["trust"] { config.chip.trust = try r.string(v, at: "chip.trust", allowed: "an absolute path") { $0.hasPrefix("/") } }
        }
    }

    /// Whether `host` only accepts connections from this machine.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

extension NodeReader {
    func list(_ node: Node, at key: String, _ options: [String]) throws(ConfigurationError) -> [String] {
        guard case .sequence(let sequence) = node else {
            throw ConfigurationError(file: file, key: key, problem: .wrongType(expected: "a list of " + options.joined(separator: ", ")))
        }
        var result: [String] = []
        for item in sequence {
            if let choice = try choice(item, at: key, options) { result.append(choice) }
        }
        return result
    }

    func strings(_ node: Node, at key: String, allowed: String, valid: (String) -> Bool) throws(ConfigurationError) -> [String] {
        guard case .sequence(let sequence) = node else {
            throw ConfigurationError(file: file, key: key, problem: .wrongType(expected: "a list"))
        }
        var result: [String] = []
        for item in sequence { result.append(try string(item, at: key, allowed: allowed, valid: valid)) }
        return result
    }
}
