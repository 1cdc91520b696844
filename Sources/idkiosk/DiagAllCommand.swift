import ArgumentParser
import Camera
import Capture
import Flash
import Foundation
import Logging
import MRTD
import Station
import Vision
#if canImport(Glibc)
import Glibc
#endif

/// `idkiosk diag all`: every check of the station in one table (or JSON), as a technician on
/// site wants it first: the configuration, the reader, the camera, the flash line, the
/// display server, the backend and the outbox, the disk, the certificates and the models.
struct DiagAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract: "Every check of the station in one table: pass, warn or fail, with a hint each.",
        discussion: """
            Checks the configuration; pcscd, the readers and a card's ATR; the camera's modes \
            and a short test capture; the flash line (taken and released, not lit); whether the \
            display server listens; the backend as `diag backend` does, and the outbox; free \
            space for the state directory; the expiry of the CSCA store's and the backend trust \
            roots' certificates; the vision models. A device the running station holds is a \
            warning, not a failure. Exits 0 when every check passes, 1 when the worst is a \
            warning, 2 when one failed.
            """
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let configuration: Configuration
        let logger: Logger
        do {
            (configuration, logger) = try global.start()
        } catch let failure as CommandFailure {
            let checks = [DiagnosticCheck("configuration", .fail, failure.message, hint: "fix the file; `idkiosk --help` names the default path")]
            if global.json { try Output.json(checks) } else { Output.text(DiagnosticTable.lines(checks)) }
            throw ExitCode(DiagnosticTable.exitCode(checks))
        }
        let progress = Progress.terminal(json: global.json)
        let checks = await Self.checks(configuration, file: global.config ?? Configuration.defaultPath, logger: logger, progress: progress)
        progress.finish()
        if global.json { try Output.json(checks) } else { Output.text(DiagnosticTable.lines(checks)) }
        throw ExitCode(DiagnosticTable.exitCode(checks))
    }

    /// Every check, in the table's order (a valid configuration read from `file`); `progress`
    /// names each as it runs. `support-bundle` calls this too.
    static func checks(_ configuration: Configuration, file: String, logger: Logger, progress: Progress) async -> [DiagnosticCheck] {
        let steps = 8
        var checks = [DiagnosticCheck(
            "configuration", .pass, FileManager.default.fileExists(atPath: file) ? "\(file) is valid" : "no file at \(file): the defaults")]
        progress.step("diag all: pcscd and the reader", 1, of: steps)
        checks += await Self.reader(configuration, logger: logger)
        progress.step("diag all: the camera (a test capture)", 2, of: steps)
        checks.append(Self.camera(configuration, logger: logger))
        progress.step("diag all: the flash line", 3, of: steps)
        checks.append(await Self.flash(configuration, logger: logger))
        progress.step("diag all: the display server", 4, of: steps)
        checks.append(Self.display(configuration))
        progress.step("diag all: the backend (DNS, TCP, TLS and token, clock) and the outbox", 5, of: steps)
        checks += await DiagBackendCommand.checks(configuration, logger: logger).map { check in
            var check = check
            if check.name != "outbox" { check.name = "backend " + check.name }
            return check
        }
        progress.step("diag all: disk space", 6, of: steps)
        checks.append(Self.disk(configuration.backend.outbox))
        progress.step("diag all: certificates", 7, of: steps)
        checks += Self.certificates(configuration, now: Date())
        progress.step("diag all: the vision models (loading them)", 8, of: steps)
        checks += Self.models(configuration.vision.models)
        return checks
    }

    // MARK: Devices

    static func reader(_ configuration: Configuration, logger: Logger) async -> [DiagnosticCheck] {
        let pattern = configuration.reader.name.isEmpty ? nil : configuration.reader.name
        let report = await NFCDiagnostics(readerPattern: pattern, samples: 2, timeout: configuration.reader.transmitTimeout, logger: logger).run()
        guard report.service.reachable else {
            return [DiagnosticCheck(
                "pcscd", .fail, "not reachable: \(report.service.error ?? "unknown")",
                hint: report.service.hint ?? "systemctl status pcscd.socket; `idkiosk diag nfc`")]
        }
        var checks = [DiagnosticCheck("pcscd", .pass, "running")]
        guard !report.readers.isEmpty else {
            checks.append(DiagnosticCheck(
                "reader", .fail, pattern.map { "no reader matches '\($0)'" } ?? "no reader attached",
                hint: "check the reader's USB cable; `idkiosk diag nfc --reader ''` lists every reader pcscd sees"))
            return checks
        }
        checks.append(DiagnosticCheck("reader", .pass, report.readers.map(\.name).joined(separator: "; ")))
        if let reader = report.readers.first(where: \.cardPresent) {
            if let card = reader.card, let error = card.error {
                checks.append(DiagnosticCheck("card", .fail, error, hint: card.hint))
            } else {
                let atr = reader.card.map { "ATR \($0.atr)" + ($0.extendedLengthAnnounced == true ? ", extended length" : "") } ?? "held by another program"
                checks.append(DiagnosticCheck("card", .pass, "on \(reader.name): \(atr)"))
            }
        } else {
            checks.append(DiagnosticCheck("card", .pass, "none on the reader (place a document to see its ATR)"))
        }
        return checks
    }

    static func camera(_ configuration: Configuration, logger: Logger) -> DiagnosticCheck {
        let source = CameraSource(name: configuration.camera.name)
        if case .recording(let path) = source {
            return DiagnosticCheck("camera", .warn, "a recording (\(path)), not a camera: a demo or test station", hint: "set camera.name to the camera")
        }
        let report = CameraDiagnostics.report(streamCheckFrames: 10, timeout: .seconds(2), logger: logger)
        var devices = report.devices.filter(\.info.isCapture)
        if case .device(let name) = source, !name.isEmpty {
            devices = devices.filter { $0.info.path == name || $0.info.stableNames.contains(name) || "card:" + $0.info.card == name }
        }
        guard let device = devices.first else {
            return DiagnosticCheck(
                "camera", .fail, configuration.camera.name.isEmpty ? "no video capture device" : "no camera named \(configuration.camera.name)",
                hint: "check the camera's USB cable; `idkiosk diag camera` lists the devices")
        }
        if let error = device.error ?? device.streamCheck?.error {
            let busy = error.kind == .busy
            return DiagnosticCheck(
                "camera", busy ? .warn : .fail, "\(device.info.card) (\(device.info.path)): \(error.message)",
                hint: busy ? "in use, most likely by the running station: stop it for a test capture" : error.hint)
        }
        let document = device.negotiated["document"].map { "document \($0.width)x\($0.height)" } ?? "no document mode"
        let stream = device.streamCheck.map { check in
            "\(check.framesDelivered)/\(check.framesRequested) frames" + (check.measuredFramesPerSecond.map { String(format: " at %.1f fps", $0) } ?? "")
        } ?? "no test capture"
        return DiagnosticCheck("camera", .pass, "\(device.info.card) (\(device.info.path)): \(document), \(stream)")
    }

    static func flash(_ configuration: Configuration, logger: Logger) async -> DiagnosticCheck {
        if configuration.flash.simulated { return DiagnosticCheck("flash", .warn, "simulated (flash.simulated: true)", hint: "set flash.chip and flash.line on a real station") }
        guard !configuration.flash.chip.isEmpty, !configuration.flash.line.isEmpty else {
            return DiagnosticCheck("flash", .warn, "no flash line configured: documents are taken without the flash", hint: "set flash.chip and flash.line (`gpioinfo`)")
        }
        let report = await FlashDiagnostics.run(
            .off, configuration: FlashConfiguration(
                chip: configuration.flash.chip, line: configuration.flash.line, maximumOnMilliseconds: configuration.flash.maximumOnMilliseconds),
            clock: ContinuousClock(), logger: logger)
        if let error = report.error {
            let busy = error.kind == .lineBusy
            return DiagnosticCheck(
                "flash", busy ? .warn : .fail, error.message,
                hint: busy ? "held, most likely by the running station" : error.hint)
        }
        return DiagnosticCheck("flash", .pass, "\(report.location ?? "line") taken and released, off (not lit)")
    }

    /// Whether something listens on the display server's address.
    static func display(_ configuration: Configuration) -> DiagnosticCheck {
        let host = configuration.display.host, port = configuration.display.port
        if let failure = BackendDiagnostics.tcpProbe(host: host, port: port) {
            return DiagnosticCheck(
                "display", .warn, "nothing listens on \(host):\(port) (\(failure))",
                hint: "is `idkiosk serve` running? `systemctl status idkiosk`")
        }
        return DiagnosticCheck("display", .pass, "listening on \(host):\(port)")
    }

    // MARK: Storage, certificates, models

    /// Free space where the outbox lives: journeys wait there while the backend is away.
    static func disk(_ outbox: String) -> DiagnosticCheck {
        var directory = (outbox as NSString).deletingLastPathComponent
        while !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) { directory = (directory as NSString).deletingLastPathComponent }
        var stats = statvfs()
        guard statvfs(directory.isEmpty ? "/" : directory, &stats) == 0 else {
            return DiagnosticCheck("disk", .fail, "cannot look at \(directory)", hint: "check backend.outbox")
        }
        let free = Double(stats.f_bavail) * Double(stats.f_frsize)
        let text = String(format: "%.1f GiB free for %@", free / 1_073_741_824, directory)
        if free < 100 * 1_048_576 { return DiagnosticCheck("disk", .fail, text, hint: "free space: the outbox cannot keep journeys") }
        if free < 1_073_741_824 { return DiagnosticCheck("disk", .warn, text, hint: "less than 1 GiB: the outbox may fill while the backend is away") }
        return DiagnosticCheck("disk", .pass, text)
    }

    /// The CSCA store's and the backend trust roots' certificates: expired ones fail, ones
    /// that expire within 30 days warn.
    static func certificates(_ configuration: Configuration, now: Date) -> [DiagnosticCheck] {
        var checks: [DiagnosticCheck] = []
        let trust = configuration.chip.trust
        if FileManager.default.fileExists(atPath: trust) {
            do {
                let store = try TrustStore(directory: trust)
                checks.append(expiry("csca", store.certificates, in: trust, now: now))
            } catch {
                checks.append(DiagnosticCheck("csca", .fail, "\(error)", hint: "fix or remove the file named; `idkiosk read-chip --trust` reads the same folder"))
            }
        } else {
            checks.append(DiagnosticCheck(
                "csca", .warn, "no CSCA store at \(trust): the station leaves passive authentication to the backend",
                hint: "install the CSCA certificates or ICAO master lists into chip.trust"))
        }
        let roots = configuration.backend.trustRoots
        if !roots.isEmpty {
            let pem = (try? String(contentsOfFile: roots, encoding: .utf8)) ?? ""
            let certificates = pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
                block.components(separatedBy: "-----END CERTIFICATE-----").first.flatMap { Data(base64Encoded: $0, options: .ignoreUnknownCharacters) }.map { [UInt8]($0) }
            }
            checks.append(certificates.isEmpty
                ? DiagnosticCheck("trust roots", .fail, "no certificate in \(roots)", hint: "backend.trust-roots must be a PEM file")
                : expiry("trust roots", certificates, in: roots, now: now))
        }
        return checks
    }

    static func expiry(_ name: String, _ certificates: [[UInt8]], in place: String, now: Date) -> DiagnosticCheck {
        let time = Int64(now.timeIntervalSince1970)
        let ends = certificates.compactMap { try? LibCrypto.certificateValidity($0).get().notAfter }
        let expired = ends.filter { $0 < time }.count
        let soon = ends.filter { $0 >= time && $0 < time + 30 * 86_400 }.count
        let text = "\(certificates.count) certificates in \(place)" + (expired > 0 ? ", \(expired) expired" : "") + (soon > 0 ? ", \(soon) expire within 30 days" : "")
        if certificates.isEmpty { return DiagnosticCheck(name, .warn, "no certificate in \(place)", hint: "install the certificates") }
        if expired == certificates.count { return DiagnosticCheck(name, .fail, text, hint: "install current certificates") }
        if expired > 0 || soon > 0 { return DiagnosticCheck(name, .warn, text, hint: "renew them before they expire") }
        return DiagnosticCheck(name, .pass, text)
    }

    static func models(_ folder: String) -> [DiagnosticCheck] {
        var checks: [DiagnosticCheck] = []
        do throws(MRZModelError) {
            _ = try MRZModel(folder: folder)
            checks.append(DiagnosticCheck("mrz model", .pass, "\(MRZModel.fileName) loads"))
        } catch {
            checks.append(DiagnosticCheck("mrz model", .fail, "\(error.code): \(error)", hint: "`idkiosk diag models`; docs/vision-models.md"))
        }
        do throws(FaceModelError) {
            _ = try FaceModels(folder: folder)
            checks.append(DiagnosticCheck("face models", .pass, "\(FaceModels.landmarksFileName), \(FaceModels.embeddingFileName) load"))
        } catch {
            checks.append(DiagnosticCheck("face models", .fail, "\(error.code): \(error)", hint: "`idkiosk diag models`; docs/vision-models.md"))
        }
        return checks
    }
}
