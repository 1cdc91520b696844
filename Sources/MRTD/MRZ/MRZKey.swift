/// The BAC (and PACE-with-MRZ) access key: document number, date of birth and date of
/// expiry, each followed by its check digit (ICAO Doc 9303 Part 11 §4.3.2, "MRZ_information").
///
/// Build it from a parsed ``MRZ`` or from what a person typed; its description is
/// redacted because every part of it is personal data.
public struct MRZKey: Hashable, Sendable {
    /// The document number as it enters the key: at least 9 characters, padded with `<`.
    let documentNumber: String
    let birthDate: String
    let expiryDate: String

    /// Builds the key from values typed by a person or read from the visual zone,
    /// computing the check digits.
    ///
    /// - Parameters:
    ///   - documentNumber: letters and digits; spaces and `<` are ignored, lower case is
    ///     accepted. Shorter than 9 characters it is padded with `<`; longer ones are kept whole.
    ///   - birthDate: `YYMMDD`.
    ///   - expiryDate: `YYMMDD`.
    /// - Throws: ``MRZError/invalidField(_:reason:)`` naming the field that is not usable.
    public init(documentNumber: String, birthDate: String, expiryDate: String) throws(MRZError) {
        let number = String(documentNumber.uppercased().filter { $0 != " " && $0 != "<" })
        guard !number.isEmpty else { throw .invalidField(.documentNumber, reason: "empty") }
        guard number.utf8.allSatisfy({ CheckDigit.value(of: $0) != nil }) else {
            throw .invalidField(.documentNumber, reason: "only letters A-Z and digits are allowed")
        }
        self.documentNumber = number.count < 9 ? number + String(repeating: "<", count: 9 - number.count) : number
        self.birthDate = try Self.date(birthDate, field: .birthDate)
        self.expiryDate = try Self.date(expiryDate, field: .expiryDate)
    }

    /// Builds the key from fields already checked by the MRZ parser.
    init(checkedDocumentNumber: String, birthDate: String, expiryDate: String) {
        documentNumber = checkedDocumentNumber.count < 9
            ? checkedDocumentNumber + String(repeating: "<", count: 9 - checkedDocumentNumber.count)
            : checkedDocumentNumber
        self.birthDate = birthDate
        self.expiryDate = expiryDate
    }

    private static func date(_ text: String, field: MRZField) throws(MRZError) -> String {
        let trimmed = text.filter { $0 != " " }
        guard trimmed.utf8.count == 6, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .invalidField(field, reason: "must be six digits, YYMMDD")
        }
        return trimmed
    }

    /// Document number, date of birth and date of expiry, each with its check digit: the
    /// input of the BAC key seed (Part 11 §9.7.2) and of the PACE MRZ password.
    var mrzInformation: [UInt8] {
        var out: [UInt8] = []
        for field in [documentNumber, birthDate, expiryDate] {
            let bytes = Array(field.utf8)
            out += bytes
            // Every character was validated, so the check digit always exists.
            out.append(CheckDigit.compute(bytes) ?? UInt8(ascii: "0"))
        }
        return out
    }
}

extension MRZKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "MRZKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
