extension DisplayCommand: Codable {
    private enum Kind: String, Codable {
        case userConsented, startCredential, setConfiguration, setAcquireMode, startScanPart, takeImage, confirm
        case retake, switchToFallback, pauseScan, retryScan, finishScanPart, finishCredential, finish, cancel
        case retryAfterError, userIsPresent, setDigitalConfiguration, handoffConfirmed, enterChipKey, lastPage
    }

    private enum CodingKeys: String, CodingKey {
        case version, type, itemId, decision, id, country, document, acquireMode, part, digitalDocument
        case can, documentNumber, dateOfBirth, dateOfExpiry
    }

    /// `{"version": 3, "type": "<case>", ...payload}`; see docs/events.schema.json.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(DisplayMessage.version, forKey: .version)
        switch self {
        case .userConsented(let itemID, let decision):
            try container.encode(Kind.userConsented, forKey: .type)
            try container.encode(itemID, forKey: .itemId)
            try container.encode(decision, forKey: .decision)
        case .startCredential(let id):
            try container.encode(Kind.startCredential, forKey: .type)
            try container.encode(id, forKey: .id)
        case .setConfiguration(let country, let document):
            try container.encode(Kind.setConfiguration, forKey: .type)
            try container.encode(country, forKey: .country)
            try container.encode(document, forKey: .document)
        case .setAcquireMode(let mode):
            try container.encode(Kind.setAcquireMode, forKey: .type)
            try container.encode(mode, forKey: .acquireMode)
        case .setDigitalConfiguration(let country, let document):
            try container.encode(Kind.setDigitalConfiguration, forKey: .type)
            try container.encode(country, forKey: .country)
            try container.encode(document, forKey: .digitalDocument)
        case .handoffConfirmed: try container.encode(Kind.handoffConfirmed, forKey: .type)
        case .startScanPart(let part):
            try container.encode(Kind.startScanPart, forKey: .type)
            try container.encode(part, forKey: .part)
        case .takeImage: try container.encode(Kind.takeImage, forKey: .type)
        case .lastPage: try container.encode(Kind.lastPage, forKey: .type)
        case .confirm: try container.encode(Kind.confirm, forKey: .type)
        case .retake: try container.encode(Kind.retake, forKey: .type)
        case .switchToFallback: try container.encode(Kind.switchToFallback, forKey: .type)
        case .pauseScan: try container.encode(Kind.pauseScan, forKey: .type)
        case .retryScan: try container.encode(Kind.retryScan, forKey: .type)
        case .finishScanPart: try container.encode(Kind.finishScanPart, forKey: .type)
        case .finishCredential: try container.encode(Kind.finishCredential, forKey: .type)
        case .finish: try container.encode(Kind.finish, forKey: .type)
        case .cancel: try container.encode(Kind.cancel, forKey: .type)
        case .retryAfterError: try container.encode(Kind.retryAfterError, forKey: .type)
        case .userIsPresent: try container.encode(Kind.userIsPresent, forKey: .type)
        case .enterChipKey(let key):
            try container.encode(Kind.enterChipKey, forKey: .type)
            switch key {
            case .can(let number): try container.encode(number, forKey: .can)
            case .mrz(let number, let birth, let expiry):
                try container.encode(number, forKey: .documentNumber)
                try container.encode(birth, forKey: .dateOfBirth)
                try container.encode(expiry, forKey: .dateOfExpiry)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == DisplayMessage.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version,
                in: container,
                debugDescription: "display command version \(version), this side speaks \(DisplayMessage.version)"
            )
        }
        switch try container.decode(Kind.self, forKey: .type) {
        case .userConsented:
            self = .userConsented(
                itemID: try container.decode(String.self, forKey: .itemId),
                decision: try container.decode(Bool.self, forKey: .decision)
            )
        case .startCredential: self = .startCredential(id: try container.decode(String.self, forKey: .id))
        case .setConfiguration:
            self = .setConfiguration(
                country: try container.decode(String.self, forKey: .country),
                document: try container.decode(Document.self, forKey: .document)
            )
        case .setAcquireMode: self = .setAcquireMode(try container.decode(Credential.AcquireMode.self, forKey: .acquireMode))
        case .startScanPart: self = .startScanPart(try container.decode(Credential.Part.self, forKey: .part))
        case .setDigitalConfiguration:
            self = .setDigitalConfiguration(
                country: try container.decode(String.self, forKey: .country),
                digitalDocument: try container.decode(DigitalDocument.self, forKey: .digitalDocument)
            )
        case .handoffConfirmed: self = .handoffConfirmed
        case .takeImage: self = .takeImage
        case .lastPage: self = .lastPage
        case .confirm: self = .confirm
        case .retake: self = .retake
        case .switchToFallback: self = .switchToFallback
        case .pauseScan: self = .pauseScan
        case .retryScan: self = .retryScan
        case .finishScanPart: self = .finishScanPart
        case .finishCredential: self = .finishCredential
        case .finish: self = .finish
        case .cancel: self = .cancel
        case .retryAfterError: self = .retryAfterError
        case .userIsPresent: self = .userIsPresent
        case .enterChipKey: self = .enterChipKey(try Self.chipKey(container))
        }
    }

    /// A typed key, checked as far as its form goes (the chip decides whether it is right):
    /// a CAN is 6 digits; a document number 1 to 22 letters A-Z and digits; dates YYMMDD.
    private static func chipKey(_ container: KeyedDecodingContainer<CodingKeys>) throws -> ChipAccessKey {
        func invalid(_ key: CodingKeys, _ what: String) -> DecodingError {
            .dataCorruptedError(forKey: key, in: container, debugDescription: what)
        }
        func isDigits(_ text: String, count: Int) -> Bool { text.utf8.count == count && text.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        if let can = try container.decodeIfPresent(String.self, forKey: .can) {
            guard isDigits(can, count: 6) else { throw invalid(.can, "a CAN is 6 digits") }
            return .can(can)
        }
        let number = try container.decode(String.self, forKey: .documentNumber).uppercased()
        guard (1...22).contains(number.utf8.count), number.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else {
            throw invalid(.documentNumber, "a document number is 1 to 22 letters and digits")
        }
        var dates: [String] = []
        for key in [CodingKeys.dateOfBirth, .dateOfExpiry] {
            let date = try container.decode(String.self, forKey: key)
            let month = Int(date.dropFirst(2).prefix(2)) ?? 0, day = Int(date.suffix(2)) ?? 0
            guard isDigits(date, count: 6), (1...12).contains(month), (1...31).contains(day) else { throw invalid(key, "a date is YYMMDD") }
            dates.append(date)
        }
        return .mrz(documentNumber: number, dateOfBirth: dates[0], dateOfExpiry: dates[1])
    }
}
