import ArgumentParser
import Camera
import Capture
import Foundation
import Glibc
import Imaging
import KioskTime
import Logging
import MRTD
import SmartCard
import Station

struct ReadChipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-chip",
        abstract: "Read and verify the chip of a passport or ID card (ICAO 9303).",
        discussion: """
            The chip is opened with the MRZ (--mrz, or --doc --birth --expiry as printed) or \
            the card access number (--can, PACE only). Without --show-data only what \
            identifies no one is printed: the files read, access control, checks and \
            timings. Exits 65 when a check of the document fails.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "The MRZ: all its lines, one after the other or separated by newlines or spaces.")
    var mrz: String?

    @Option(name: .long, help: "Document number, as printed.")
    var doc: String?

    @Option(name: .long, help: "Date of birth, YYMMDD.")
    var birth: String?

    @Option(name: .long, help: "Date of expiry, YYMMDD.")
    var expiry: String?

    @Option(name: .long, help: "Card access number (6 digits), for PACE.")
    var can: String?

    @Option(name: .long, help: "Only readers whose name contains this text (default: reader.name from the configuration).")
    var reader: String?

    @Option(name: .long, help: "Directory of CSCA certificates, CRLs and master lists for Passive Authentication.")
    var trust: String?

    @Option(name: .long, help: "Write the face image from DG2 to this file, as JPEG (a JPEG 2000 face is converted).")
    var photo: String?

    @Flag(name: .long, help: "Also print the holder's data (name, dates, numbers) on standard output.")
    var showData = false

    func validate() throws {
        let ways = [mrz != nil, doc != nil || birth != nil || expiry != nil, can != nil].filter { $0 }.count
        guard ways == 1 else { throw ValidationError("give exactly one of --mrz, --doc/--birth/--expiry, or --can") }
        if doc != nil || birth != nil || expiry != nil {
            guard doc != nil, birth != nil, expiry != nil else { throw ValidationError("--doc, --birth and --expiry go together") }
        }
    }

    /// What the command found, without personal data unless asked.
    struct Report: Encodable {
        struct File: Encodable {
            var name: String
            var bytes: Int
        }
        struct Check: Encodable {
            var name: String
            var outcome: String
            var reason: String
        }
        struct Holder: Encodable {
            var documentCode, issuingState, documentNumber, primaryIdentifier, secondaryIdentifier: String
            var nationality, birthDate, sex, expiryDate: String
        }
        var reader: String
        var accessControl: String
        /// Whether EF.CardAccess offered PACE, and why PACE failed when BAC read the chip instead.
        var paceOffered: Bool
        var paceFailure: String?
        var files: [File]
        var refused: [String: String]
        var passiveAuthentication: String
        var checks: [Check]
        var apdus: Int
        var bytesReceived: Int
        var sessionRestarts: Int
        var reconnects: Int
        var readLength: Int
        var seconds: Double
        var photo: String?
        var holder: Holder?
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            var trustStore: TrustStore?
            if let trust {
                do {
                    trustStore = try TrustStore(directory: trust)
                } catch {
                    throw CommandFailure(.badInput, "\(error)")
                }
            }
            let password = try accessPassword()
            // The station's chip capture, without its wait for a document to be placed: the
            // document must be on the reader now; one lifted mid-read is waited for a minute.
            let chip = ChipCapture(
                settings: .init(
                    readerPattern: reader ?? configuration.reader.name, exclusive: configuration.reader.exclusive,
                    transmitTimeout: configuration.reader.transmitTimeout, returnTimeout: .seconds(60), waitsForDocument: false),
                trustStore: trustStore, clock: ContinuousClock(), logger: logger)
            // The reader monitor's thread must leave libpcsclite before the process exits
            // (libpcsclite frees its contexts in a destructor at exit): stop it here, on every
            // path, and wait for it, not for the capture to be released.
            defer {
                chip.stopWatching()
                ReaderMonitor.waitUntilStopped()
            }
            let progress = Progress.terminal(json: global.json)
            progress.step("read-chip: opening the chip")
            let reading: ChipReading
            do throws(ChipDeviceError) {
                reading = try await chip.read(password: password) { report in
                    switch report {
                    case .progress(let percent, let file):
                        progress.step("read-chip: reading \(file.name): \(percent)%")
                    case .cardLost:
                        let message = "the document left the reader: put it back and keep it still"
                        if progress.enabled { progress.note(message) } else { FileHandle.standardError.write(Data((message + "\n").utf8)) }
                    case .waitingForCard, .started, .resumed:
                        break
                    }
                }
            } catch {
                progress.finish()
                throw Self.failure(error)
            }
            progress.finish()

            let report = try makeReport(reading)
            if global.json { try Output.json(report) } else { Output.text(Self.describe(report)) }
            if report.checks.contains(where: { $0.outcome == VerificationCheck.Outcome.failed.rawValue }) {
                throw CommandFailure(.verificationFailed, "the document failed a check (see above)")
            }
        }
    }

    private func accessPassword() throws -> PACE.Password {
        do {
            if let mrz {
                let text = mrz.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" }).joined()
                return .mrz(try MRZ(text).key)
            }
            if let doc, let birth, let expiry {
                return .mrz(try MRZKey(documentNumber: doc, birthDate: birth, expiryDate: expiry))
            }
            return .can(try CardAccessNumber(can ?? ""))
        } catch {
            // The error names the field and position, never the value.
            throw CommandFailure(.badInput, "\(error)")
        }
    }

    /// The exit status and words for a failed read: PC/SC and chip failures in their own terms.
    static func failure(_ error: ChipDeviceError) -> CommandFailure {
        switch error.cause {
        case .smartCard(let cause): CommandFailure(cause)
        case .chip(let cause): failure(cause)
        case nil:
            switch error.kind {
            case .accessDenied: CommandFailure(.badInput, error.message)
            case .readerMissing: CommandFailure(.deviceMissing, error.message)
            case .unreadable: CommandFailure(.deviceError, error.message)
            }
        }
    }

    static func failure(_ error: MRTDError) -> CommandFailure {
        switch error.code {
        case .accessDenied:
            return CommandFailure(.badInput, error.description, hint: "check the MRZ (or document number and dates, or CAN) against the document")
        case .cardLost, .transportFailure:
            return CommandFailure(.deviceError, error.description, hint: "keep the document on the reader until the read completes")
        default:
            return CommandFailure(.deviceError, error.description)
        }
    }

    private func makeReport(_ reading: ChipReading) throws -> Report {
        let contents = reading.contents
        var checks: [VerificationCheck] = []
        var paOutcome = "not checked (no --trust)"
        if let pa = reading.passiveAuthentication {
            checks += pa.checks
            paOutcome = pa.outcome.rawValue
        }
        if let ca = contents.chipAuthentication { checks.append(ca) }
        if let aa = contents.activeAuthentication { checks.append(aa) }

        var photoNote: String?
        if let photo {
            guard let face = try? contents.dataGroup2()?.faces.first else {
                throw CommandFailure(.deviceError, "the chip has no readable face image (DG2)")
            }
            // A JPEG 2000 face (as some states store it) becomes JPEG for display and upload.
            let jpeg: [UInt8]
            var converted = ""
            switch face.encoding {
            case .jpeg: jpeg = face.imageData
            case .jpeg2000:
                do {
                    jpeg = try JPEG2000.toJPEG(face.imageData)
                    converted = ", converted from JPEG 2000"
                } catch {
                    throw CommandFailure(.deviceError, "the JPEG 2000 face image does not decode: \(error.message)")
                }
            }
            do {
                try Data(jpeg).write(to: URL(fileURLWithPath: photo), options: [.atomic])
            } catch {
                throw CommandFailure(.badInput, "cannot write \(photo): \(error.localizedDescription)")
            }
            photoNote = "\(photo) (JPEG\(converted), \(face.width)x\(face.height), \(jpeg.count) bytes)"
        }
        var holder: Report.Holder?
        if showData, let mrz = try? contents.dataGroup1()?.mrz {
            holder = Report.Holder(
                documentCode: mrz.documentCode, issuingState: mrz.issuingState, documentNumber: mrz.documentNumber,
                primaryIdentifier: mrz.name.primaryIdentifier, secondaryIdentifier: mrz.name.secondaryIdentifier,
                nationality: mrz.nationality, birthDate: mrz.birthDate, sex: mrz.sex.rawValue, expiryDate: mrz.expiryDate)
        }
        let total = contents.statistics.total
        let elapsed = reading.duration
        let seconds = elapsed.inSeconds
        return Report(
            reader: reading.reader, accessControl: contents.accessControl.rawValue, paceOffered: contents.paceOffered, paceFailure: contents.paceFailure,
            files: contents.files.keys.sorted().map { Report.File(name: $0.name, bytes: contents.files[$0]?.count ?? 0) },
            refused: Dictionary(uniqueKeysWithValues: contents.refused.map { ($0.key.name, $0.value.description) }),
            passiveAuthentication: paOutcome,
            checks: checks.map { Report.Check(name: $0.name, outcome: $0.outcome.rawValue, reason: $0.reason) },
            apdus: total.commands, bytesReceived: total.bytesReceived, sessionRestarts: contents.statistics.sessionRestarts,
            reconnects: contents.statistics.reconnects, readLength: contents.statistics.finalReadLength,
            seconds: (seconds * 1000).rounded() / 1000, photo: photoNote, holder: holder)
    }

    static func describe(_ r: Report) -> [String] {
        var lines = ["reader: \(r.reader)", "access control: \(r.accessControl)"]
        if let failure = r.paceFailure { lines.append("  PACE offered but failed, read with BAC instead: \(failure)") }
        lines.append("files:")
        lines += r.files.map { "  \($0.name): \($0.bytes) bytes" }
        for (name, sw) in r.refused.sorted(by: { $0.key < $1.key }) { lines.append("  \(name): refused (\(sw))") }
        lines.append("passive authentication: \(r.passiveAuthentication)")
        lines += r.checks.map { "  \($0.name): \($0.outcome) (\($0.reason))" }
        lines.append("read: \(r.apdus) APDUs, \(r.bytesReceived) bytes in \(r.seconds) s, READ BINARY length \(r.readLength)"
            + (r.sessionRestarts > 0 ? ", \(r.sessionRestarts) session restart(s)" : "")
            + (r.reconnects > 0 ? ", \(r.reconnects) reconnect(s)" : ""))
        if let photo = r.photo { lines.append("photo: \(photo)") }
        if let h = r.holder {
            lines += [
                "holder:", "  name: \(h.primaryIdentifier), \(h.secondaryIdentifier)", "  document: \(h.documentCode) \(h.documentNumber), \(h.issuingState)",
                "  nationality: \(h.nationality)", "  born: \(h.birthDate)  sex: \(h.sex)  expires: \(h.expiryDate)",
            ]
        }
        return lines
    }
}
