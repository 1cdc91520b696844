import Foundation
import Imaging
import KioskTestKit
import Logging
import MRTD
import Testing
import VirtualCard
import VirtualPassport

/// `idkiosk read-chip` against a virtual passport through the real pcscd + vpcd.
@Suite(.serialized, .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)))
struct ReadChipIntegrationTests {
    static let mrz = PassportDataSet.specimenMRZ
    static let readerPattern = "Virtual PCD 00 01"

    /// A passport signed by a fresh test issuer, on slot 1, and a trust directory with its CSCA.
    func withPassport(
        faceSize: Int? = 20_000, faceEncoding: FaceImage.Encoding = .jpeg, faceFormat: FaceRecordFormat = .iso19794,
        _ body: (String) async throws -> Void
    ) async throws {
        try await withPassport(faceSize: faceSize, faceEncoding: faceEncoding, faceFormat: faceFormat) { trust, _ in try await body(trust) }
    }

    /// The same, with the card on the reader for the test to lift.
    func withPassport(
        faceSize: Int? = 20_000, faceEncoding: FaceImage.Encoding = .jpeg, faceFormat: FaceRecordFormat = .iso19794,
        quirks: PassportQuirks = PassportQuirks(), cardAccess: [UInt8]? = nil, _ body: (String, VirtualCard) async throws -> Void
    ) async throws {
        let now = Int64(Date().timeIntervalSince1970)
        let issuer = try TestIssuer(signerValidity: (now - 86_400)...(now + 86_400))
        let data = try PassportDataSet.make(mrz: Self.mrz, faceSize: faceSize, faceEncoding: faceEncoding, faceFormat: faceFormat) {
            try issuer.securityObject($0)
        }
        let passport = VirtualPassport(key: try data.key(), files: data.files, cardAccess: cardAccess, quirks: quirks)
        let trust = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: trust) }
        try Data(issuer.cscaCertificate).write(to: trust.appendingPathComponent("csca.der"))

        let card = PCSCTestEnvironment.card(passport, port: VirtualCard.defaultPort + 1)
        try card.insert()
        defer { card.remove() }
        try await Task.sleep(for: .milliseconds(800))  // pcscd polls vpcd for the card
        try await body(trust.path, card)
    }

    @Test func readsAndVerifiesWithoutPrintingPersonalData() async throws {
        try await withPassport { trust in
            let photo = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-face-\(UUID().uuidString).jpg")
            defer { try? FileManager.default.removeItem(at: photo) }
            let outcome = IDKioskBinary.run(
                "read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", trust, "--photo", photo.path, "--json")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            #expect(object?["passiveAuthentication"] as? String == "passed")
            #expect(object?["accessControl"] as? String == "BAC")
            let files = object?["files"] as? [[String: Any]] ?? []
            let dg2 = files.first { $0["name"] as? String == "DG2" }
            #expect((dg2?["bytes"] as? Int ?? 0) > 20_000)
            #expect(object?["holder"] == nil)
            #expect(try Data(contentsOf: photo).count == 20_000)
            // Nothing of the holder on stdout or in the logs on stderr unless asked.
            for personal in ["ERIKSSON", "ANNA", "L898902C3", "740812"] {
                #expect(!outcome.stdout.contains(personal))
                #expect(!outcome.stderr.contains(personal))
            }
        }
    }

    /// Interoperability fault 1 (#13) through pcscd: two PACEInfos (GM on P-256 and on
    /// brainpoolP256r1); MSE:Set AT names the one chosen, and the chip is read with PACE. A
    /// chip that refuses PACE is read with BAC, and the result says PACE failed and why.
    @Test func twoPACEInfosAreReadWithPACEAndAFailedPACEIsSaid() async throws {
        let twoCurves = PassportDataSet.paceCardAccess(offering: [("0.4.0.127.0.7.2.2.4.2.2", 12), ("0.4.0.127.0.7.2.2.4.2.2", 13)])
        try await withPassport(cardAccess: twoCurves) { trust, _ in
            let outcome = IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", trust, "--json")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            #expect(object["accessControl"] as? String == "PACE")
            #expect(object["paceOffered"] as? Bool == true)
            #expect(object["paceFailure"] == nil)
            #expect(object["passiveAuthentication"] as? String == "passed")
        }
        var refusing = PassportQuirks()
        refusing.refusePACE = true
        try await withPassport(quirks: refusing, cardAccess: PassportDataSet.paceCardAccess()) { trust, _ in
            let outcome = IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", trust, "--json")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            #expect(object["accessControl"] as? String == "BAC")
            #expect((object["paceFailure"] as? String)?.contains("6D00") == true, "\(object)")
            let text = IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", trust)
            #expect(text.stdout.contains("PACE offered but failed, read with BAC instead"), "\(text.stdout)")
        }
    }

    /// Interoperability fault 3 (#13) through pcscd: an answer's MAC does not verify; the chip
    /// answers the next plain command with 6987 (it was still in secure messaging). The read
    /// restarts the session, resumes, passes, and says it restarted.
    @Test func aCorruptedMACMidReadRestartsTheSessionAndTheReadCompletes() async throws {
        var quirks = PassportQuirks()
        quirks.corruptMACOnCommand = 8
        try await withPassport(quirks: quirks) { trust, _ in
            let outcome = IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", trust, "--json")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            #expect(object["passiveAuthentication"] as? String == "passed")
            #expect((object["sessionRestarts"] as? Int ?? 0) >= 1, "\(object)")
        }
        // The quirk fires once: a second document for the text report.
        try await withPassport(quirks: quirks) { trust, _ in
            let text = IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", trust)
            #expect(text.stdout.contains("session restart"), "\(text.stdout)")
        }
    }

    /// A JPEG 2000 face in an ISO/IEC 39794-5 record: `--photo` writes a JPEG of the picture.
    @Test func jpeg2000FaceIsWrittenAsJPEG() async throws {
        try await withPassport(faceSize: nil, faceEncoding: .jpeg2000, faceFormat: .iso39794) { trust in
            let photo = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-face-\(UUID().uuidString).jpg")
            defer { try? FileManager.default.removeItem(at: photo) }
            let outcome = IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", trust, "--photo", photo.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("converted from JPEG 2000"))
            let jpeg = [UInt8](try Data(contentsOf: photo))
            #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
            #expect(try JPEGCodec().size(of: jpeg) == (480, 640))
        }
    }

    @Test func showDataPrintsTheHolderOnStdoutOnly() async throws {
        try await withPassport { _ in
            let outcome = IDKioskBinary.run(
                "read-chip", "--reader", Self.readerPattern, "--doc", "L898902C3", "--birth", "740812", "--expiry", "120415",
                "--show-data")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("ERIKSSON"))
            #expect(outcome.stdout.contains("passive authentication: not checked"))
            #expect(!outcome.stderr.contains("ERIKSSON"))
        }
    }

    @Test func wrongKeyIsBadInputAndUnknownCSCAFailsTheDocument() async throws {
        try await withPassport { _ in
            let wrong = IDKioskBinary.run(
                "read-chip", "--reader", Self.readerPattern, "--doc", "L898902C3", "--birth", "740813", "--expiry", "120415")
            #expect(wrong.status == 64)
            #expect(wrong.stderr.contains("accessDenied"))
            #expect(!wrong.stderr.contains("740813"))

            // A trust store with another country's CSCA: the signer chains to nothing trusted.
            let now = Int64(Date().timeIntervalSince1970)
            let stranger = try TestIssuer(signerValidity: (now - 86_400)...(now + 86_400))
            let other = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-other-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: other) }
            try Data(stranger.cscaCertificate).write(to: other.appendingPathComponent("csca.der"))
            let untrusted = IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", other.path)
            #expect(untrusted.status == 65, "\(untrusted.stdout)\(untrusted.stderr)")
            #expect(untrusted.stdout.contains("passive authentication: failed"))
            #expect(untrusted.stderr.contains("the document failed a check"))
        }
    }

    /// A document lifted mid-read and put back: read-chip waits for it through the reader
    /// monitor (the station's chip capture) and the read resumes.
    @Test func aDocumentLiftedMidReadIsWaitedForAndTheReadResumes() async throws {
        var quirks = PassportQuirks()
        quirks.maxReadLength = 1000
        try await withPassport(quirks: quirks) { trust, card in
            var faults = CardFaults()
            faults.vanishAfterCommands = card.commandsAnswered + 20
            card.faults = faults
            let read = Task.detached { IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--mrz", Self.mrz, "--trust", trust, "--json") }
            // The document leaves mid-read; the person puts it back a moment later.
            for _ in 0..<500 where card.isInserted { try await Task.sleep(for: .milliseconds(10)) }
            #expect(!card.isInserted)
            card.faults = CardFaults()
            // Interoperability fault 4 (#13): back after 2 s, as the report had it.
            try await Task.sleep(for: .seconds(2))
            try card.insert()
            let outcome = await read.value
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("the document left the reader: put it back"))
            let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            #expect(object?["passiveAuthentication"] as? String == "passed")
            #expect((object?["reconnects"] as? Int ?? 0) >= 1)
        }
    }

    @Test func noDocumentOnTheReaderExits69() async throws {
        // vpcd can go on reporting a card whose connection it has not read from since the card
        // vanished mid-command (the lifted-document test): a card placed and lifted again
        // gives the reader a state of its own, known to be empty.
        let card = PCSCTestEnvironment.card(port: VirtualCard.defaultPort + 1)
        try card.insert()
        try await Task.sleep(for: .milliseconds(800))  // pcscd polls vpcd for the card
        card.remove()
        // pcscd notices a card leaving at its next poll of the reader: wait for that. A card
        // still there after ten seconds is another test's, left behind: say so, not "74".
        var diag = IDKioskBinary.run("diag", "nfc", "--reader", Self.readerPattern, "--require-card")
        for _ in 0..<100 where diag.status != 69 {
            try await Task.sleep(for: .milliseconds(100))
            diag = IDKioskBinary.run("diag", "nfc", "--reader", Self.readerPattern, "--require-card")
        }
        try #require(diag.status == 69, "pcscd still sees a document on \(Self.readerPattern): \(diag.status) \(diag.stdout)\(diag.stderr)")
        let outcome = IDKioskBinary.run("read-chip", "--reader", Self.readerPattern, "--can", "123456")
        #expect(outcome.status == 69, "\(outcome.stderr)")
    }
}

@Suite struct ReadChipArgumentTests {
    @Test func exactlyOneWayToOpenTheChip() {
        #expect(IDKioskBinary.run("read-chip").status == 64)
        #expect(IDKioskBinary.run("read-chip", "--can", "123456", "--doc", "X").status == 64)
        #expect(IDKioskBinary.run("read-chip", "--doc", "L898902C3", "--birth", "740812").status == 64)
    }

    @Test func malformedMRZIsBadInputAndNamesTheField() {
        let outcome = IDKioskBinary.run("read-chip", "--mrz", "P<UTOERIKSSON<<ANNA")
        #expect(outcome.status == 64)
    }
}
