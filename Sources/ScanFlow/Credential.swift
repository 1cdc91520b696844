/// One piece of evidence the workflow asks for, and how far the person got with it
/// (seeds: `Jumio.Credential` and its subclasses).
///
/// A credential is a value the controller owns and hands out as a snapshot; the
/// controller's events change it. Its queries (`supportedCountries`,
/// `isSupportedConfiguration(country:document:)`, ...) are what a Custom UI needs to
/// build its selection screen.
public struct Credential: Hashable, Sendable {
    /// The seeds' `Jumio.Credential.Category`.
    public enum Category: String, Hashable, Sendable, Codable, CaseIterable {
        case id
        case face
        case document
        case data
    }

    /// The seeds' `Jumio.Credential.Part`.
    public enum Part: String, Hashable, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
        case front
        case back
        case face
        case nfc
        case document
        case multipart
        case digital
    }

    /// How a document credential acquires its image (seeds: `Jumio.Acquire.Mode`).
    public enum AcquireMode: String, Hashable, Sendable, Codable, CaseIterable {
        case camera
        case file
    }

    public let info: Info
    /// The chosen country (ISO 3166-1 alpha-3) and document of an `id` credential.
    public var configuration: (country: String, document: Document)? {
        storedConfiguration.map { ($0.country, $0.document) }
    }
    /// The chosen acquire mode of a `document` credential.
    public internal(set) var acquireMode: AcquireMode?
    /// Parts whose scan part was finished.
    public internal(set) var finishedParts: Set<Part> = []
    /// Whether the chip was read as an add-on of this credential.
    public internal(set) var chipRead = false
    /// Whether `finishCredential` was called.
    public internal(set) var isFinished = false

    private var storedConfiguration: StoredConfiguration?

    private struct StoredConfiguration: Hashable, Sendable {
        var country: String
        var document: Document
    }

    init(info: Info) {
        self.info = info
        if let only = info.preselection {
            storedConfiguration = StoredConfiguration(country: only.country, document: only.document)
        }
        if info.category == .document, info.acquireModes.count == 1 {
            acquireMode = info.acquireModes[0]
        }
    }

    public var id: String { info.id }
    public var category: Category { info.category }

    /// Whether scanning can start without a selection (seeds: `isConfigured`).
    public var isConfigured: Bool {
        switch info.category {
        case .id: storedConfiguration != nil
        case .document: acquireMode != nil
        case .face, .data: true
        }
    }

    /// The countries the workflow accepts, sorted.
    public var supportedCountries: [String] { info.countries.keys.sorted() }

    /// The physical documents the workflow accepts for a country.
    public func physicalDocuments(for country: String) -> [Document] {
        info.countries[country] ?? []
    }

    /// The digital documents for a country: always empty, a kiosk cannot hand over to a
    /// Digital Identity app.
    public func digitalDocuments(for country: String) -> [Document] { [] }

    /// Whether `setConfiguration(country:document:)` would accept this combination.
    ///
    /// Fastfill does not support paper documents except German identity cards (seed 002).
    public func isSupportedConfiguration(country: String, document: Document) -> Bool {
        guard info.category == .id, physicalDocuments(for: country).contains(document) else { return false }
        if info.extractionOnly, document.variant == .paper {
            return country == "DEU" && document.type == .identityCard
        }
        return true
    }

    /// Whether a document credential can acquire its image this way.
    public func isSupportedConfiguration(acquireMode: AcquireMode) -> Bool {
        info.category == .document && info.acquireModes.contains(acquireMode)
    }

    mutating func setConfiguration(country: String, document: Document) {
        storedConfiguration = StoredConfiguration(country: country, document: document)
    }

    /// The parts to scan, in order; empty until the credential is configured.
    public var parts: [Part] {
        switch info.category {
        case .id: storedConfiguration?.document.parts ?? []
        case .face: [.face]
        case .document: acquireMode == nil ? [] : [.document]
        case .data: []
        }
    }

    /// Whether every part was scanned and finished (seeds: `isComplete`).
    public var isComplete: Bool {
        isConfigured && parts.allSatisfy(finishedParts.contains)
    }

    /// The mode a part starts in.
    func mode(for part: Part) -> Scan.Mode {
        switch part {
        case .face: info.faceMode
        case .document: acquireMode == .file ? .file : .manual
        case .nfc: .nfc
        case .digital: .web
        case .front, .back, .multipart: info.documentMode
        }
    }

    /// Whether a finished part may be followed by reading the chip.
    func offersChipAddon(after part: Part) -> Bool {
        guard info.chipReading, let document = storedConfiguration?.document else { return false }
        switch document.type {
        case .passport, .identityCard: return part == .front || part == .multipart
        case .visa, .drivingLicense: return false
        }
    }
}
