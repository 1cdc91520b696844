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
    /// The chosen country (ISO 3166-1 alpha-3) and physical document of an `id` credential.
    public var configuration: (country: String, document: Document)? {
        guard let stored = storedConfiguration, case .physical(let document) = stored.document else { return nil }
        return (stored.country, document)
    }
    /// The chosen country and Digital Identity of an `id` credential.
    public var digitalConfiguration: (country: String, document: DigitalDocument)? {
        guard let stored = storedConfiguration, case .digital(let document) = stored.document else { return nil }
        return (stored.country, document)
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
        var document: ChosenDocument
    }

    /// The seeds' `Jumio.Document`: physical or digital.
    private enum ChosenDocument: Hashable, Sendable {
        case physical(Document)
        case digital(DigitalDocument)
    }

    init(info: Info) {
        self.info = info
        if let only = info.preselection {
            storedConfiguration = StoredConfiguration(country: only.country, document: .physical(only.document))
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

    /// The countries the workflow accepts, for a physical or a digital document, sorted.
    public var supportedCountries: [String] {
        Set(info.countries.keys).union(info.digitalDocuments.filter { !$0.value.isEmpty }.keys).sorted()
    }

    /// The physical documents the workflow accepts for a country.
    public func physicalDocuments(for country: String) -> [Document] {
        info.countries[country] ?? []
    }

    /// The Digital Identity providers the workflow accepts for a country.
    public func digitalDocuments(for country: String) -> [DigitalDocument] {
        guard info.category == .id else { return [] }
        return info.digitalDocuments[country] ?? []
    }

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

    /// Whether `setConfiguration(country:digitalDocument:)` would accept this combination.
    public func isSupportedConfiguration(country: String, digitalDocument: DigitalDocument) -> Bool {
        digitalDocuments(for: country).contains(digitalDocument)
    }

    /// Whether a document credential can acquire its image this way.
    public func isSupportedConfiguration(acquireMode: AcquireMode) -> Bool {
        info.category == .document && info.acquireModes.contains(acquireMode)
    }

    mutating func setConfiguration(country: String, document: Document) {
        storedConfiguration = StoredConfiguration(country: country, document: .physical(document))
    }

    mutating func setConfiguration(country: String, digitalDocument: DigitalDocument) {
        storedConfiguration = StoredConfiguration(country: country, document: .digital(digitalDocument))
    }

    /// Forgets the chosen document: the person cancelled a Digital Identity and chooses again.
    mutating func clearConfiguration() {
        storedConfiguration = nil
    }

    /// The parts to scan, in order; empty until the credential is configured.
    public var parts: [Part] {
        switch info.category {
        case .id:
            switch storedConfiguration?.document {
            case .physical(let document): document.parts
            case .digital: [.digital]
            case nil: []
            }
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
        case .document:
            // A page is found and taken by itself like an ID document; `manual` when the
            // workflow asks for the shutter.
            acquireMode == .file ? .file : (info.documentMode == .manual ? .manual : .docFinder)
        case .nfc: .nfc
        case .digital: .web
        case .front, .back, .multipart:
            // The barcode (PDF417) is on the back of a card; a passport or visa page has none.
            info.documentMode == .barcode && part == .front ? .docFinder : info.documentMode
        }
    }

    /// Whether a finished part may be followed by reading the chip.
    func offersChipAddon(after part: Part) -> Bool {
        guard info.chipReading, let document = configuration?.document else { return false }
        switch document.type {
        case .passport, .identityCard: return part == .front || part == .multipart
        case .visa, .drivingLicense: return false
        }
    }
}
