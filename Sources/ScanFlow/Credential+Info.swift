extension Credential {
    /// What the workflow says about one credential (seeds: `Jumio.Credential.Info`).
    public struct Info: Hashable, Sendable, Codable {
        public var id: String
        public var category: Category
        /// Accepted countries (ISO 3166-1 alpha-3) and their documents, for `id` credentials.
        public var countries: [String: [Document]]
        /// Accepted Digital Identity providers per country, for `id` credentials.
        public var digitalDocuments: [String: [DigitalDocument]]
        /// Accepted acquire modes, for `document` credentials.
        public var acquireModes: [AcquireMode]
        /// The capture mode of document sides (`docFinder`, `manual` or `barcode`). In `barcode`
        /// mode a card's front is captured as an image and the PDF417 barcode on its back is
        /// read (seeds: US driving licences); single-page documents are captured in `docFinder`.
        public var documentMode: Scan.Mode
        /// The capture mode of the face (`faceLiveness` or `faceManual`).
        public var faceMode: Scan.Mode
        /// Whether the chip of a passport or identity card is read after its data page.
        public var chipReading: Bool
        /// Fastfill: the evidence is extracted, not verified.
        public var extractionOnly: Bool

        public init(
            id: String,
            category: Category,
            countries: [String: [Document]] = [:],
            digitalDocuments: [String: [DigitalDocument]] = [:],
            acquireModes: [AcquireMode] = [],
            documentMode: Scan.Mode = .docFinder,
            faceMode: Scan.Mode = .faceLiveness,
            chipReading: Bool = false,
            extractionOnly: Bool = false
        ) {
            self.id = id
            self.category = category
            self.countries = countries
            self.digitalDocuments = digitalDocuments
            self.acquireModes = acquireModes
            self.documentMode = documentMode
            self.faceMode = faceMode
            self.chipReading = chipReading
            self.extractionOnly = extractionOnly
        }

        /// The one country and document when the workflow preselected exactly one
        /// combination, which skips the selection screen (seeds: Preselection).
        ///
        /// A digital document is never preselected (seeds: "Digital Identity document type
        /// can not be preselected"): a digital alternative makes a second combination, and a
        /// workflow offering one digital document only still shows the selection.
        public var preselection: (country: String, document: Document)? {
            guard category == .id, countries.count == 1, let (country, documents) = countries.first,
                documents.count == 1, digitalDocuments.values.allSatisfy(\.isEmpty)
            else { return nil }
            return (country, documents[0])
        }
    }
}

extension Credential.Info {
    private enum CodingKeys: String, CodingKey {
        case id, category, countries, digitalDocuments, acquireModes, documentMode, faceMode, chipReading
        case extractionOnly
    }

    /// Decodes an info; `digitalDocuments` may be missing (a display of the first contract sends none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            category: try container.decode(Credential.Category.self, forKey: .category),
            countries: try container.decode([String: [Document]].self, forKey: .countries),
            digitalDocuments: try container.decodeIfPresent([String: [DigitalDocument]].self, forKey: .digitalDocuments)
                ?? [:],
            acquireModes: try container.decode([Credential.AcquireMode].self, forKey: .acquireModes),
            documentMode: try container.decode(Scan.Mode.self, forKey: .documentMode),
            faceMode: try container.decode(Scan.Mode.self, forKey: .faceMode),
            chipReading: try container.decode(Bool.self, forKey: .chipReading),
            extractionOnly: try container.decode(Bool.self, forKey: .extractionOnly)
        )
    }
}
