import AsyncHTTPClient
public import Backend
import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The demo's stack as separate processes, as `make demo` runs it: the virtual passport on
/// vpcd's second slot, the reference backend, the file camera's recordings, and
/// `idkiosk serve` on free ports. Needs the pcscd that `make test` starts.
public final class DemoStack: Sendable {
    public let directory: String
    public let displayPort: Int
    public let statusPort: Int
    public let backendPort: Int
    public let passport: ChildProcess
    public let backend: ChildProcess
    public let serve: ChildProcess
    public let database: String
    /// The station's client credentials at the reference backend.
    public let clientID: String
    public let clientSecret: String
    /// When `idkiosk serve` was spawned.
    public let serveStartedAt: ContinuousClock.Instant

    public var displayURL: String { "http://127.0.0.1:\(displayPort)/" }
    public var statusURL: String { "http://127.0.0.1:\(statusPort)" }

    public struct Options: Sendable {
        /// The MRZ (TD3: 88 characters, TD1: 90) of the virtual chip; the generated demo
        /// recording's own (its ground truth) by default, so the station reads the same zone.
        public var mrz: String?
        public var autopilot = 0
        public var autopilotPauseMs = 50
        public var environment: [String: String] = [:]
        public var start = "[touch]"
        /// The station's `journey.workflow` (`authentication` needs `start: "[reference]"`).
        public var workflow = "passport-chip-face"
        /// `vision.min-analysed-fps`: low, because the tests share two cores with Chromium and
        /// three processes of the stack; under the floor a capture falls back to manual.
        public var minimumAnalysedFPS = 1
        public var inactivitySeconds = 60
        public var resultSeconds = 5
        /// The simulated person in front of the face camera (docs/face-data.md) and how they
        /// present themselves (`genuine`, `print`, `screen`); whose portrait the chip holds.
        public var person = "collins"
        public var presentation = "genuine"
        public var chipPortrait = "collins"
        /// The reference backend's consent items (`idkiosk-backend serve --consent`).
        public var backendConsent = "passive"
        /// The station's `backend.offline` and `display.theme.dark`.
        public var offline = "queue"
        public var dark = "auto"
        /// The document camera's recording (MJPEG); the generated demo booklet by default.
        public var documentRecording: String?
        /// The station's `journey.countries`.
        public var countries = "[UTO]"
        /// More options of `idkiosk sim passport` (e.g. `--active-authentication --clone`).
        public var passportOptions: [String] = []
        /// The document camera's recording: a generated recording under the vision data
        /// (`field/sequences/demo-booklet`, a passport open at its data page, by default), e.g.
        /// `sequences/demo-document` (a loose passport page), `sequences/demo-idcard` (an
        /// identity card's front, then its back; the virtual chip
        /// holds the zone it shows) or `paper/sequences/demo-pages` (a paper document's pages
        /// one after the other). A paper recording needs only the paper data: no face data, no
        /// MRZ model.
        public var document = "field/sequences/demo-booklet"
        /// The station's `journey.max-pages`.
        public var maxPages = 10
        /// Where the binaries are; next to the test bundle by default.
        public var binDirectory = URL(fileURLWithPath: IDKioskBinary.path).deletingLastPathComponent().path

        public init(mrz: String? = nil) { self.mrz = mrz }
    }

    public init(_ options: Options) async throws {
        let bin = options.binDirectory
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-demo-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/trust", withIntermediateDirectories: true)
        // The face from `sim recordings`; the document is the generated demo recording, a
        // passport open at its data page, whose MRZ (OCR-B) the station reads its chip key from.
        let recordings = runCapturing(bin + "/idkiosk", ["sim", "recordings", "--out", directory + "/recordings", "--frames", "8"])
        guard recordings.status == 0 else { throw ChildProcessError("sim recordings: \(recordings.stderr)") }
        let paper = options.document.hasPrefix("paper/")
        let demo: String
        var passportArguments = ["sim", "passport", "--slot", "1", "--pace", "--trust-out", directory + "/trust", "--log-level", "warning"]
        if paper {
            // A paper document: the reader only has to be there (the passport sim on its slot).
            guard let data = VisionDataSet.paper() else { throw ChildProcessError("the demo needs \(VisionDataSet.paperMissing)") }
            demo = data.root + "/" + options.document.dropFirst("paper/".count)
            if let mrz = options.mrz { passportArguments += ["--mrz", mrz] }
        } else {
            guard let data = VisionDataSet(), VisionCrops.hasModel else {
                throw ChildProcessError("the demo needs \(VisionDataSet.missing) and the MRZ model (`make vision-models`)")
            }
            guard let faces = FaceData(), FacePhotos.models != nil else {
                throw ChildProcessError("the demo needs \(FaceData.missing) and \(FacePhotos.modelsMissing)")
            }
            // The face: the simulated person whose frames answer the LED (as `make demo`), and
            // her portrait in the chip.
            try faces.litRecordings(in: directory + "/recordings", identity: options.person, presentation: options.presentation)
            demo = data.root + "/" + options.document
            let truth = try JSONDecoder().decode([DemoFrame?].self, from: Data(contentsOf: URL(fileURLWithPath: demo + ".json")))
            guard let lines = truth.lazy.compactMap({ $0 }).compactMap(\.mrz).first else { throw ChildProcessError("\(demo).json has no MRZ") }
            passportArguments += ["--mrz", options.mrz ?? lines.joined(), "--photo", faces.station + "/\(options.chipPortrait)-dg2.jpg"]
        }
        try FileManager.default.removeItem(atPath: directory + "/recordings/document.mjpeg")
        try FileManager.default.copyItem(atPath: options.documentRecording ?? demo + ".mjpeg", toPath: directory + "/recordings/document.mjpeg")
        passport = try ChildProcess(bin + "/idkiosk", passportArguments + options.passportOptions, logPath: directory + "/passport.log")
        database = directory + "/backend.sqlite"
        let client = runCapturing(bin + "/idkiosk-backend", ["clients", "add", "--database", database, "--name", "e2e", "--json"])
        guard client.status == 0, let json = try JSONSerialization.jsonObject(with: Data(client.stdout.utf8)) as? [String: String],
            let id = json["clientId"], let secret = json["clientSecret"]
        else { throw ChildProcessError("clients add: \(client.stderr)") }
        try secret.write(toFile: directory + "/client.secret", atomically: true, encoding: .utf8)
        clientID = id
        clientSecret = secret
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: directory + "/trust/csca.der") { try await Task.sleep(for: .milliseconds(50)) }
        backendPort = freeTCPPort()
        backend = try ChildProcess(
            bin + "/idkiosk-backend",
            ["serve", "--database", database, "--port", "\(backendPort)", "--csca", directory + "/trust", "--consent", options.backendConsent]
                + (paper ? [] : ["--models", VisionCrops.models])
                + (options.workflow == "digital-identity" ? ["--simulated-digital-identity"] : []),
            logPath: directory + "/backend.log")
        displayPort = freeTCPPort()
        statusPort = freeTCPPort()
        let configuration = """
            station:
              name: e2e
            log:
              level: info
            reader:
              name: "\(PCSCTestEnvironment.secondSlotReader)"
            camera:
              name: "file:\(directory)/recordings"
            vision:
              models: \(VisionCrops.models)
              min-analysed-fps: \(options.minimumAnalysedFPS)
              document:
                field-of-view: 45
            flash:
              simulated: true
            journey:
              start: \(options.start)
              workflow: \(options.workflow)
              countries: \(options.countries)
              result-s: \(options.resultSeconds)
              inactivity-s: \(options.inactivitySeconds)
              max-pages: \(options.maxPages)
            backend:
              url: http://127.0.0.1:\(backendPort)
              client-id: "\(id)"
              client-secret-file: \(directory)/client.secret
              outbox: \(directory)/outbox.sqlite
              outbox-key-file: \(directory)/outbox.key
              offline: \(options.offline)
            display:
              port: \(displayPort)
              theme:
                dark: \(options.dark)
            status:
              port: \(statusPort)
            chip:
              trust: \(directory)/trust
            """
        try configuration.write(toFile: directory + "/idkiosk.yaml", atomically: true, encoding: .utf8)
        guard await waitForTCPPort(backendPort) else { throw ChildProcessError("backend did not listen: \(backend.output)") }
        var arguments = ["serve", "--config", directory + "/idkiosk.yaml"]
        if options.autopilot > 0 {
            arguments += ["--autopilot", "\(options.autopilot)", "--autopilot-pause-ms", "\(options.autopilotPauseMs)"]
        }
        serveStartedAt = ContinuousClock.now
        serve = try ChildProcess(bin + "/idkiosk", arguments, extraEnvironment: options.environment, logPath: directory + "/serve.log")
        guard await waitForTCPPort(displayPort), await waitForTCPPort(statusPort) else {
            throw ChildProcessError("idkiosk serve did not listen: \(serve.output)")
        }
    }

    /// The ground truth of one frame of a generated recording.
    struct DemoFrame: Decodable {
        var mrz: [String]?
    }

    /// Whether the generated data and model the stack needs are there.
    public static var canStart: Bool { VisionDataSet() != nil && VisionCrops.hasModel && FaceData() != nil && FacePhotos.models != nil }
    /// Whether a stack with a paper recording can start (the paper data is there).
    public static var canStartPaper: Bool { VisionDataSet.paper() != nil }
    public static let missing = "\(VisionDataSet.missing), \(FaceData.missing) and the models (`make vision-models`)"

    /// Waits until the daemon's output contains `text`.
    /// The reference backend's record of the journey whose decision `idkiosk serve` logged
    /// (its `decision` line names the account and the workflow execution).
    public func backendDetails() async throws -> WorkflowExecutionDetails {
        try await waitForOutput("workflowExecution=")
        guard let line = serve.output.split(separator: "\n").first(where: { $0.contains("decision") && $0.contains("workflowExecution=") }) else {
            throw ChildProcessError("no decision line in the station's log")
        }
        func field(_ name: String) -> String? {
            line.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        guard let account = field("account"), let execution = field("workflowExecution") else {
            throw ChildProcessError("the decision line names no account or execution")
        }
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let backend = HTTPVerificationBackend(
            configuration: .init(baseURL: "http://127.0.0.1:\(backendPort)", clientId: clientID, clientSecret: clientSecret),
            httpClient: httpClient, clock: ContinuousClock(), logger: Logger(label: "demo-stack", factory: { _ in SwiftLogNoOpLogHandler() }))
        do {
            let details = try await backend.retrieve(ExecutionRef(accountId: account, workflowExecutionId: execution, sessionToken: ""))
            try await httpClient.shutdown()
            return details
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
    }

    public func waitForOutput(_ text: String, limit: Duration = .seconds(60)) async throws {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while clock.now < end {
            if serve.output.contains(text) { return }
            if !serve.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChildProcessError("never saw '\(text)'; idkiosk serve wrote:\n\(serve.output.suffix(3000))")
    }

    public func get(_ path: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: statusURL + path)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    public func stop() async {
        await serve.terminate()
        await backend.terminate()
        await passport.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
