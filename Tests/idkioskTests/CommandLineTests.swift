import Foundation
import KioskTestKit
import Testing

/// The `idkiosk` binary as a technician runs it: arguments in, text or JSON and an
/// exit status out.
@Suite struct CommandLineTests {
    @Test func binaryIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: IDKioskBinary.path), "build it first: swift build --build-tests")
    }

    @Test func versionAsJSON() throws {
        let outcome = IDKioskBinary.run("version", "--json")
        #expect(outcome.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == "idkiosk")
        #expect((object?["version"] as? String)?.isEmpty == false)
    }

    @Test func badArgumentsExit64() {
        #expect(IDKioskBinary.run("diag", "nfc", "--log-level", "loud").status == 64)
        #expect(IDKioskBinary.run("diag", "nfc", "--samples", "0").status == 64)
        #expect(IDKioskBinary.run("sim", "card", "--atr", "12zz").status == 64)
        #expect(IDKioskBinary.run("no-such-command").status == 64)
    }

    @Test func badConfigurationExits78AndNamesTheKey() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-bad-\(UUID().uuidString).yaml")
        try "reader:\n  transmit-timeout-ms: 0\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = IDKioskBinary.run("diag", "nfc", "--config", file.path)
        #expect(outcome.status == 78)
        #expect(outcome.stderr.contains("reader.transmit-timeout-ms"))
        #expect(outcome.stderr.contains("100 to 60000"))
    }

    @Test func missingConfigurationFileExits78() {
        let outcome = IDKioskBinary.run("version", "--config", "/nonexistent/idkiosk.yaml")
        // `version` does not read the configuration: it must work on a broken box.
        #expect(outcome.status == 0)
        let diag = IDKioskBinary.run("diag", "nfc", "--config", "/nonexistent/idkiosk.yaml")
        #expect(diag.status == 78)
        #expect(diag.stderr.contains("no such configuration file"))
    }

    @Test func pcscdAbsentExits69WithAHint() throws {
        // libpcsclite finds pcscd through this socket path; pointing it nowhere is pcscd absent.
        let env = ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"]
        let text = IDKioskBinary.run("diag", "nfc", environment: env)
        #expect(text.status == 69)
        #expect(text.stdout.contains("pcscd: NOT reachable"))
        #expect(text.stderr.contains("SCARD_E_NO_SERVICE"))
        #expect(text.stderr.contains("hint: start the PC/SC daemon"))

        let json = IDKioskBinary.run("diag", "nfc", "--json", environment: env)
        #expect(json.status == 69)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let service = object?["service"] as? [String: Any]
        #expect(service?["reachable"] as? Bool == false)
    }
}

/// `idkiosk diag nfc` and `idkiosk sim card` against the real pcscd + vpcd.
@Suite(.serialized, .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)))
struct CommandLineIntegrationTests {
    @Test func diagNFCShowsTheVirtualReaderAndCard() async throws {
        let card = PCSCTestEnvironment.card()
        try card.insert()
        defer { card.remove() }
        try await Task.sleep(for: .milliseconds(800))  // pcscd polls vpcd for the card

        let outcome = IDKioskBinary.run("diag", "nfc", "--json", "--reader", "Virtual PCD 00 00", "--samples", "3")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let readers = object?["readers"] as? [[String: Any]] ?? []
        #expect(readers.count == 1)
        #expect(readers.first?["cardPresent"] as? Bool == true)
        let cardInfo = readers.first?["card"] as? [String: Any]
        #expect(cardInfo?["atr"] as? String == "3B8A80018031F873F741E082900075")
        #expect(cardInfo?["extendedLengthAnnounced"] as? Bool == true)
        let roundTrip = cardInfo?["roundTrip"] as? [String: Any]
        #expect(roundTrip?["status"] as? String == "9000")
        #expect(roundTrip?["samples"] as? Int == 3)

        let text = IDKioskBinary.run("diag", "nfc", "--reader", "Virtual PCD 00 00")
        #expect(text.status == 0)
        #expect(text.stdout.contains("card: present"))
        #expect(text.stdout.contains("contactless card (PC/SC part 3 ATR)"))
        #expect(text.stdout.contains("probe answered 9000"))
    }

    @Test func requireCardOnAnEmptyReaderExits69() {
        let outcome = IDKioskBinary.run("diag", "nfc", "--reader", "Virtual PCD 00 01", "--require-card")
        #expect(outcome.status == 69)
        #expect(outcome.stdout.contains("card: none"))
    }

    @Test func noMatchingReaderExits69() {
        let outcome = IDKioskBinary.run("diag", "nfc", "--reader", "No Such Reader")
        #expect(outcome.status == 69)
        #expect(outcome.stderr.contains("no reader matches 'No Such Reader'"))
    }

    @Test func simCardPutsACardOnTheReader() async throws {
        let child = Task.detached { IDKioskBinary.run("sim", "card", "--slot", "1", "--seconds", "3") }
        try await Task.sleep(for: .milliseconds(1500))
        let during = IDKioskBinary.run("diag", "nfc", "--reader", "Virtual PCD 00 01", "--require-card")
        #expect(during.status == 0, "\(during.stdout)\(during.stderr)")
        let outcome = await child.value
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("virtual card removed"))
    }
}
