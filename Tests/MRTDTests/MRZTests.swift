@testable import MRTD
import Testing

/// MRZ specimens of ICAO Doc 9303 (fictional state "UTO"): TD3 Part 4, TD1 Part 5, TD2
/// Part 6, MRV-A/MRV-B Part 7, and the long document number of Part 11 Appendix D.2, as
/// reproduced in public test suites (e.g. JMRTD's MRZInfoTest, gmrtd, ZeroPass/dmrtd).
@Suite struct MRZTests {
    static let td3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"
    static let td1 = "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<"
    static let td2 = "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\nD231458907UTO7408122F1204159<<<<<<<6"
    static let mrvA = "V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL8988901C4XXX4009078F96121096ZE184226B<<<<<<"
    static let mrvB = "V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\nL8988901C4XXX4009078F9612109<<<<<<<<"
    /// Appendix D.2: a 12-character document number overflowing into the optional data.
    static let td2Long = "I<UTOSTEVENSON<<PETER<JOHN<<<<<<<<<<\nD23145890<UTO3407127M95071227349<<<8"
    static let td1Long = "I<UTOD23145890<7349<<<<<<<<<<<\n3407127M9507122UTO<<<<<<<<<<<2\nSTEVENSON<<PETER<JOHN<<<<<<<<<"
    /// Appendix D.3's document: an 8-character number padded with one filler.
    static let td2Short = "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\nL898902C<3UTO6908061F9406236<<<<<<<2"

    @Test func parsesTD3Specimen() throws {
        let mrz = try MRZ(Self.td3)
        #expect(mrz.format == .td3)
        #expect(mrz.documentCode == "P")
        #expect(mrz.issuingState == "UTO")
        #expect(mrz.name.primaryIdentifier == "ERIKSSON")
        #expect(mrz.name.secondaryIdentifier == "ANNA MARIA")
        #expect(mrz.documentNumber == "L898902C3")
        #expect(mrz.nationality == "UTO")
        #expect(mrz.birthDate == "740812")
        #expect(mrz.sex == .female)
        #expect(mrz.expiryDate == "120415")
        #expect(mrz.optionalData == "ZE184226B")
    }

    @Test func parsesTD1Specimen() throws {
        let mrz = try MRZ(Self.td1)
        #expect(mrz.format == .td1)
        #expect(mrz.documentCode == "I")
        #expect(mrz.documentNumber == "D23145890")
        #expect(mrz.birthDate == "740812")
        #expect(mrz.expiryDate == "120415")
        #expect(mrz.nationality == "UTO")
        #expect(mrz.optionalData.isEmpty)
        #expect(mrz.name == MRZName(primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA"))
    }

    @Test func parsesTD2Specimen() throws {
        let mrz = try MRZ(Self.td2)
        #expect(mrz.format == .td2)
        #expect(mrz.documentNumber == "D23145890")
        #expect(mrz.sex == .female)
        #expect(mrz.name.secondaryIdentifier == "ANNA MARIA")
    }

    @Test func parsesVisaSpecimens() throws {
        let a = try MRZ(Self.mrvA)
        #expect(a.format == .mrvA)
        #expect(a.documentCode == "V")
        #expect(a.documentNumber == "L8988901C")
        #expect(a.nationality == "XXX")
        #expect(a.birthDate == "400907")
        #expect(a.expiryDate == "961210")
        #expect(a.optionalData == "6ZE184226B")
        let b = try MRZ(Self.mrvB)
        #expect(b.format == .mrvB)
        #expect(b.documentNumber == "L8988901C")
        #expect(b.optionalData.isEmpty)
    }

    @Test func acceptsConcatenatedLinesAndSurroundingSpace() throws {
        let joined = Self.td3.replacing("\n", with: "")
        #expect(try MRZ(joined) == MRZ(Self.td3))
        #expect(try MRZ("  \n" + Self.td1.replacing("\n", with: " \r\n") + "\n").format == .td1)
    }

    @Test func readsLongDocumentNumberFromTD2Overflow() throws {
        let mrz = try MRZ(Self.td2Long)
        #expect(mrz.documentNumber == "D23145890734")
        #expect(mrz.optionalData.isEmpty)
        #expect(String(decoding: mrz.key.mrzInformation, as: UTF8.self) == "D23145890734934071279507122")
        // Key seed published for this document by ZeroPass/dmrtd (Appendix D.2 example).
        let seed = try BAC.accessKeys(for: mrz.key).seed
        #expect(seed == hex("b366ad857ddca2b08c0e299811714730"))
    }

    @Test func readsLongDocumentNumberFromTD1Overflow() throws {
        let mrz = try MRZ(Self.td1Long)
        #expect(mrz.documentNumber == "D23145890734")
        #expect(mrz.name.primaryIdentifier == "STEVENSON")
        #expect(mrz.name.secondaryIdentifier == "PETER JOHN")
        #expect(mrz.key == MRZKey(checkedDocumentNumber: "D23145890734", birthDate: "340712", expiryDate: "950712"))
    }

    @Test func shortDocumentNumberKeepsItsFillerInTheKey() throws {
        let mrz = try MRZ(Self.td2Short)
        #expect(mrz.documentNumber == "L898902C")
        #expect(String(decoding: mrz.key.mrzInformation, as: UTF8.self) == "L898902C<369080619406236")
    }

    @Test(arguments: [
        // (zone, line index, 0-based column of the check digit, field)
        (td3, 1, 9, MRZField.documentNumber),
        (td3, 1, 19, .birthDate),
        (td3, 1, 27, .expiryDate),
        (td3, 1, 42, .optionalData),
        (td3, 1, 43, .composite),
        (td1, 0, 14, .documentNumber),
        (td1, 1, 6, .birthDate),
        (td1, 1, 14, .expiryDate),
        (td1, 1, 29, .composite),
        (td2, 1, 9, .documentNumber),
        (td2, 1, 19, .birthDate),
        (td2, 1, 27, .expiryDate),
        (td2, 1, 35, .composite),
        (mrvA, 1, 9, .documentNumber),
        (mrvA, 1, 19, .birthDate),
        (mrvB, 1, 27, .expiryDate),
        (td1Long, 0, 18, .documentNumber),
        (td2Long, 1, 31, .documentNumber),
    ])
    func reportsTheFieldWhoseCheckDigitFails(zone: String, line: Int, column: Int, field: MRZField) {
        let altered = Self.replacing(in: zone, line: line, column: column)
        #expect(throws: MRZError.checkDigitMismatch(field, line: line + 1, column: column + 1)) {
            try MRZ(altered)
        }
    }

    @Test func alteredFieldIsCaughtByItsOwnCheckDigit() {
        // Change the birth date itself (not its check digit): 740812 → 740813.
        let altered = Self.replacing(in: Self.td3, line: 1, column: 18)
        #expect(throws: MRZError.checkDigitMismatch(.birthDate, line: 2, column: 20)) { try MRZ(altered) }
    }

    @Test func rejectsCharactersOutsideTheMRZAlphabet() {
        let lower = Self.td3.replacing("ERIKSSON", with: "ERIKSSoN")
        #expect(throws: MRZError.invalidCharacter(line: 1, column: 12)) { try MRZ(lower) }
    }

    @Test func rejectsUnknownLayouts() {
        #expect(throws: MRZError.unrecognizedLayout(lineLengths: [44, 43])) { try MRZ(String(Self.td3.dropLast())) }
        #expect(throws: MRZError.unrecognizedLayout(lineLengths: [])) { try MRZ("") }
    }

    @Test func rejectsOverflowMarkerWithoutOverflow() {
        let zone = "I<UTOD23145890<<<<<<<<<<<<<<<<\n3407127M9507122UTO<<<<<<<<<<<2\nSTEVENSON<<PETER<JOHN<<<<<<<<<"
        #expect(throws: MRZError.self) { try MRZ(zone) }
        do {
            _ = try MRZ(zone)
        } catch {
            #expect(error.field == .documentNumber)
        }
    }

    @Test func keyKeepsTheNumberFieldExactlyAsPrinted() throws {
        // A number with an inner filler: the key must hash the field as printed, not the
        // display form (where the filler becomes a space).
        let line2 = Self.td3Line2(number: "AB<123456", birth: "740812", expiry: "120415")
        let mrz = try MRZ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n" + line2)
        #expect(mrz.documentNumber == "AB 123456")
        #expect(String(decoding: mrz.key.mrzInformation.prefix(9), as: UTF8.self) == "AB<123456")
    }

    /// A TD3 second line with every check digit computed, for numbers no specimen has.
    static func td3Line2(number: String, birth: String, expiry: String) -> String {
        func digit(_ text: String) -> String {
            String(decoding: [CheckDigit.compute(Array(text.utf8)) ?? 0], as: UTF8.self)
        }
        let personal = String(repeating: "<", count: 14)
        let a = number + digit(number)
        let b = birth + digit(birth)
        let c = expiry + digit(expiry)
        let d = personal + "<"
        return a + "UTO" + b + "F" + c + d + digit(a + b + c + d)
    }

    @Test func typedKeyMatchesTheParsedOne() throws {
        let typed = try MRZKey(documentNumber: "l898 902c3", birthDate: "740812", expiryDate: "120415")
        #expect(try typed == MRZ(Self.td3).key)
    }

    @Test func typedKeyGivesAppendixDMRZInformation() throws {
        let short = try MRZKey(documentNumber: "L898902C", birthDate: "690806", expiryDate: "940623")
        #expect(String(decoding: short.mrzInformation, as: UTF8.self) == "L898902C<369080619406236")
        let long = try MRZKey(documentNumber: "D23145890734", birthDate: "340712", expiryDate: "950712")
        #expect(String(decoding: long.mrzInformation, as: UTF8.self) == "D23145890734934071279507122")
    }

    @Test func typedKeyNamesTheUnusableField() {
        #expect(throws: MRZError.invalidField(.documentNumber, reason: "empty")) {
            try MRZKey(documentNumber: " < ", birthDate: "690806", expiryDate: "940623")
        }
        #expect(throws: MRZError.invalidField(.documentNumber, reason: "only letters A-Z and digits are allowed")) {
            try MRZKey(documentNumber: "L89-902", birthDate: "690806", expiryDate: "940623")
        }
        #expect(throws: MRZError.invalidField(.birthDate, reason: "must be six digits, YYMMDD")) {
            try MRZKey(documentNumber: "L898902C", birthDate: "69086", expiryDate: "940623")
        }
        #expect(throws: MRZError.invalidField(.expiryDate, reason: "must be six digits, YYMMDD")) {
            try MRZKey(documentNumber: "L898902C", birthDate: "690806", expiryDate: "94O623")
        }
    }

    @Test func cardAccessNumberIsSixDigits() throws {
        #expect(try CardAccessNumber("123 456").passwordBytes == Array("123456".utf8))
        #expect(throws: MRZError.invalidField(.cardAccessNumber, reason: "must be six digits")) { try CardAccessNumber("12345") }
        #expect(throws: MRZError.self) { try CardAccessNumber("12345A") }
    }

    @Test func checkDigitOfPublishedExamples() {
        // Part 3 §4.9 examples: L898902C3 → 6, 740812 → 2, 120415 → 9.
        #expect(CheckDigit.compute(Array("L898902C3".utf8)) == UInt8(ascii: "6"))
        #expect(CheckDigit.compute(Array("740812".utf8)) == UInt8(ascii: "2"))
        #expect(CheckDigit.compute(Array("120415".utf8)) == UInt8(ascii: "9"))
        #expect(CheckDigit.compute(Array("ab".utf8)) == nil)
    }

    /// Replaces one character with a different MRZ character (a digit by the next digit,
    /// anything else by `0`, a `0` by `1`).
    static func replacing(in zone: String, line: Int, column: Int) -> String {
        var lines = zone.split(separator: "\n").map { Array($0.utf8) }
        let old = lines[line][column]
        lines[line][column] = (0x30...0x38).contains(old) ? old + 1 : old == 0x39 ? 0x30 : 0x31
        return lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
    }
}
