import ScanFlow

/// Workflows and captures the tests share. The "personal data" in them is made up and
/// distinctive, so the redaction test can look for it.
enum Fixtures {
    static let token = SessionToken("tok-SECRET-4f1c")
    static let mrzKey = ChipAccessKey.mrz(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415")

    static let privacy = ConsentItem(id: "privacy", type: .active, text: "I agree", url: "https://example.org/p")
    static let notice = ConsentItem(id: "notice", type: .passive, text: "We store images", url: "https://example.org/n")

    static let passportCredential = Credential.Info(
        id: "id-1",
        category: .id,
        countries: ["AUT": [Document(.passport)]],
        chipReading: true
    )
    static let idCardCredential = Credential.Info(
        id: "id-2",
        category: .id,
        countries: ["AUT": [Document(.identityCard), Document(.passport)], "DEU": [Document(.identityCard, .paper)]]
    )
    static let faceCredential = Credential.Info(id: "face-1", category: .face)
    static let documentCredential = Credential.Info(id: "doc-1", category: .document, acquireModes: [.camera, .file])

    static let mitID = DigitalDocument(id: "mitid", title: "MitID")
    /// The hand-off's URL carries a one-time token: secret, like the session token.
    static let handoff = DigitalHandoff(provider: "mitid", url: "https://verify.example.org/h/hand-off-SECRET-9a2")
    /// A passport or the Danish MitID.
    static let digitalCredential = Credential.Info(
        id: "id-3",
        category: .id,
        countries: ["DNK": [Document(.passport)]],
        digitalDocuments: ["DNK": [mitID]]
    )
    /// A workflow whose only combination is a digital document (which cannot be preselected).
    static let digitalOnlyCredential = Credential.Info(id: "id-4", category: .id, digitalDocuments: ["DNK": [mitID]])

    /// Digital Identity or a passport, then the face.
    static let digitalAndFace = Workflow(
        credentials: [digitalCredential, faceCredential],
        token: token,
        digitalHandoffs: [handoff]
    )

    /// ID + Identity verification: a passport with its chip, then the face.
    static let passportAndFace = Workflow(
        credentials: [passportCredential, faceCredential],
        consentItems: [privacy, notice],
        token: token
    )

    static func workflow(_ credentials: Credential.Info..., flow: Workflow.Flow = .verification) -> Workflow {
        Workflow(flow: flow, credentials: credentials, token: token)
    }

    static func image(_ side: Credential.Part, key: ChipAccessKey? = nil) -> CapturedImage {
        CapturedImage(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0x42], side: side, chipAccessKey: key)
    }
}
