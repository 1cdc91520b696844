import ScanFlow
import Testing

@Suite struct RedactionTests {
    /// The made-up personal data of the fixtures.
    static let secrets = ["L898902C3", "740812", "120415", "tok-SECRET", "enr-77", "123456", "255, 216", "hand-off-SECRET"]

    /// Every way a value may be printed: description, debug description and a dump of its mirror.
    static func printed(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    static func expectRedacted(_ value: Any, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in printed(value) {
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret) printed in \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func typesCarryingPersonalDataPrintRedacted() {
        let image = Fixtures.image(.front, key: Fixtures.mrzKey)
        let values: [Any] = [
            Fixtures.token, Fixtures.mrzKey, ChipAccessKey.can("123456"), image,
            AuthenticationReference.enrollment("enr-77"), AuthenticationReference.authenticationTransaction("enr-77"),
            Workflow(flow: .authentication(.enrollment("enr-77")), credentials: [Fixtures.faceCredential], token: Fixtures.token),
            Action.uploadPart(.front, [image]), Action.startChipRead(Fixtures.mrzKey),
            Fixtures.handoff, Fixtures.digitalAndFace, DisplayMessage.digitalHandoff(Fixtures.handoff),
            Action.display(.digitalHandoff(Fixtures.handoff)),
        ]
        for value in values {
            Self.expectRedacted(value)
        }
        #expect(Fixtures.token.description == "SessionToken(<redacted>)")
        #expect(image.description == "CapturedImage(front, 5 bytes, <redacted>, chip keys: 1)")
        #expect(Fixtures.handoff.description == "DigitalHandoff(mitid, <redacted>)")
    }

    @Test func theControllerPrintsNoHandoffDuringADigitalIdentity() {
        var h = Harness()
        h.send { $0.start(workflow: Fixtures.digitalAndFace) }
        h.send { $0.startCredential(id: "id-3") }
        h.send { $0.setConfiguration(country: "DNK", digitalDocument: Fixtures.mitID) }
        h.send { $0.startScanPart(.digital) }
        // The hand-off did go to the display: the check below looks where the secret is.
        #expect(h.displayed.contains(.digitalHandoff(Fixtures.handoff)))
        Self.expectRedacted(h.controller)
        Self.expectRedacted(h.log)
        h.send { $0.handoffConfirmed() }
        Self.expectRedacted(h.controller)
        h.send { $0.cancel() }
        Self.expectRedacted(h.log)
    }

    @Test(arguments: Stage.allCases)
    func theControllerPrintsNoPersonalDataAtAnyStage(_ stage: Stage) {
        var h = stage.harness()
        Self.expectRedacted(h.controller)
        Self.expectRedacted(h.log)
        #expect(h.controller.description.hasPrefix("Controller("))
        h.send { $0.cancel() }
        Self.expectRedacted(h.log)
    }
}
