extension Credential {
    /// What the workflow says about one credential (seeds: `Jumio.Credential.Info`).
    public struct Info: Hashable, Sendable, Codable {
        public var id: String
        public var category: Category
        /// Accepted countries (ISO 3166-1 alpha-3) and their documents, for `id` credentials.
        public var countries: [String: [Document]]
        /// Accepted acquire modes, for `document` credentials.
        public var acquireModes: [AcquireMode]
        /// The capture mode of document sides (`docFinder`, `manual` or `barcode`).
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
            acquireModes: [AcquireMode] = [],
            documentMode: Scan.Mode = .docFinder,
            faceMode: Scan.Mode = .faceLiveness,
            chipReading: Bool = false,
            extractionOnly: Bool = false
        ) {
            self.id = id
            self.category = category
            self.countries = countries
            self.acquireModes = acquireModes
            self.documentMode = documentMode
            self.faceMode = faceMode
            self.chipReading = chipReading
            self.extractionOnly = extractionOnly
        }

        /// The one country and document when the workflow preselected exactly one
        /// combination, which skips the selection screen (seeds: Preselection).
        public var preselection: (country: String, document: Document)? {
            guard category == .id, countries.count == 1, let (country, documents) = countries.first,
                documents.count == 1
            else { return nil }
            return (country, documents[0])
        }
    }
}
