@testable import MRTD
import Testing

/// Personal data must not reach logs: every way Swift turns these values into text
/// must leave the holder's data out.
@Suite struct RedactionTests {
    static let secrets = ["ERIKSSON", "ANNA", "MARIA", "L898902C", "740812", "120415", "ZE184226B"]

    struct Wrapper {
        let mrz: MRZ
        let key: MRZKey
        let name: MRZName
        let can: CardAccessNumber
    }

    @Test func noRenderingRevealsPersonalData() throws {
        let mrz = try MRZ(MRZTests.td3)
        let wrapper = Wrapper(mrz: mrz, key: mrz.key, name: mrz.name, can: try CardAccessNumber("740812"))
        var dumped = ""
        dump(wrapper, to: &dumped)
        let renderings = [
            mrz.description, mrz.debugDescription, "\(mrz)", String(reflecting: mrz), "\([mrz])", "\(Optional(mrz) as Any)",
            mrz.key.description, String(reflecting: mrz.key), mrz.name.description, String(reflecting: mrz.name),
            "\(wrapper)", String(reflecting: wrapper), dumped,
        ]
        for text in renderings {
            for secret in Self.secrets {
                #expect(!text.contains(secret), "\(secret) leaked")
            }
        }
        #expect(mrz.description == "MRZ(TD3, redacted)")
        #expect(dumped.contains("redacted"))
    }

    @Test func sessionKeysStayOutOfDescriptions() throws {
        let messaging = try SecureMessaging(
            cipher: .tripleDES, encryptionKey: hex("979EC13B1CBFE9DCD01AB0FED307EAE5"),
            macKey: hex("F1CB1F1FB5ADF208806B89DC579DC1F8"), sendSequenceCounter: hex("887022120C06C226"))
        var dumped = ""
        dump(messaging, to: &dumped)
        for text in [messaging.description, String(reflecting: messaging), dumped] {
            #expect(!text.uppercased().contains("979EC13B"))
            #expect(!text.contains("151"))  // first key byte in decimal, as a default dump would print it
        }
    }
}
