import Foundation
import KioskTestKit
import Testing
import Vision

/// The AAMVA parser: the standard's own example, the generated records (written by a
/// Python encoder apart from this parser), and typed errors for malformed records.
@Suite struct AAMVARecordTests {
    /// The example of the AAMVA DL/ID Card Design Standard (2020), Annex D: its header
    /// says the DL subfile starts at byte 41 and is 278 bytes long, the ZV subfile at 319.
    static let example =
        "@\n\u{1E}\rANSI 636000100002DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\nDDGN\nDCUJR\n"
        + "DCAD\nDCBK\nDCDPH\nDBD06062019\nDBB06061986\nDBA12102024\nDBC1\nDAU068 in\nDAYBRO\nDAG2300 WEST BROAD STREET\n"
        + "DAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\nDCK123456789\nDDAF\nDDB06062018\n"
        + "DDC06062020\nDDD1\rZVZVA01\r"

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func theStandardsExampleParsesToItsFields() throws {
        let bytes = Self.bytes(Self.example)
        // The header's offsets and lengths hold for this text (so the example is copied right).
        #expect(bytes.count == 319 + 8)
        #expect(Array(bytes[41..<43]) == Array("DL".utf8) && Array(bytes[319..<321]) == Array("ZV".utf8))
        let record = try AAMVARecord(bytes).validated()
        #expect(record.issuerIdentificationNumber == "636000")
        #expect(record.version == 10 && record.jurisdictionVersion == 0)
        #expect(record.subfiles.map(\.type) == ["DL", "ZV"])
        #expect(record.subfiles[1].elements.map(\.id) == ["ZVA"] && record.subfiles[1].elements.map(\.value) == ["01"])
        #expect(record.documentKind == .drivingLicense)
        #expect(record.documentNumber == "T64235789")
        #expect(record.familyName == "SAMPLE")
        #expect(record.firstName == "MICHAEL")
        #expect(record.middleNames == "JOHN")
        #expect(record["DCU"] == "JR")
        #expect(try record.date("DBB")?.iso8601 == "1986-06-06")
        #expect(try record.date("DBA")?.iso8601 == "2024-12-10")
        #expect(try record.date("DBD")?.iso8601 == "2019-06-06")
        #expect(record.sex == "M")
        #expect(record.street == "2300 WEST BROAD STREET")
        #expect(record.city == "RICHMOND")
        #expect(record.jurisdiction == "VA")
        #expect(record.postalCode == "23269")
        #expect(record.country == "USA")
        #expect(record.hasAddress)
        #expect(record["DAU"] == "068 in")
    }

    @Test func canadianDatesAreYearFirst() throws {
        let text = Self.example.replacingOccurrences(of: "DCGUSA", with: "DCGCAN")
            .replacingOccurrences(of: "DBB06061986", with: "DBB19860606").replacingOccurrences(of: "DBA12102024", with: "DBA20241210")
            .replacingOccurrences(of: "DBD06062019", with: "DBD20190606")
        let record = try AAMVARecord(Self.bytes(text)).validated()
        #expect(try record.date("DBB")?.iso8601 == "1986-06-06")
        #expect(try record.date("DBA")?.iso8601 == "2024-12-10")
        // The same digits in the US order are no date.
        let wrong = Self.example.replacingOccurrences(of: "DBB06061986", with: "DBB19860606")
        #expect(throws: AAMVAError.invalidDate(element: "DBB")) { try AAMVARecord(Self.bytes(wrong)).validated() }
    }

    @Test func offsetsThatAreOffAreFoundByTheSubfileType() throws {
        // Some issuers count the offset without the header's separators.
        let text = Self.example.replacingOccurrences(of: "DL00410278", with: "DL00380278")
        #expect(try AAMVARecord(Self.bytes(text)).documentNumber == "T64235789")
    }

    @Test func malformedRecordsGetTypedErrors() {
        let cases: [(String, AAMVAError)] = [
            ("", .notAAMVA),
            ("https://example.org/ticket", .notAAMVA),
            ("@\n\u{1E}\rAAMV", .truncatedHeader),
            ("@\n\u{1E}\rANSI 63600", .truncatedHeader),
            ("@\n\u{1E}\rANSI 6360X0100002", .invalidHeader(field: "issuer")),
            ("@\n\u{1E}\rANSI 636000100000", .invalidHeader(field: "entries")),
            ("@\n\u{1E}\rANSI 6360001000", .truncatedHeader),
            ("@\n\u{1E}\rANSI 636000100001dl00310010", .invalidHeader(field: "designator")),
            ("@\n\u{1E}\rANSI 636000100001DL00310010XXDAQ1\r", .subfileOutOfRange(type: "DL")),
            ("@\n\u{1E}\rANSI 636000100001ZV00310008ZVZVA01\r", .noDocumentSubfile),
            ("@\n\u{1E}\rANSI 636000100001DL00310012DLDAQ1\nD\r", .invalidElement(index: 2)),
            ("@\n\u{1E}\rANSI 636000100001DL00310012DLdaq1\r", .invalidElement(index: 1)),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text.debugDescription)") { try AAMVARecord(Self.bytes(text)) }
        }
        #expect(throws: AAMVAError.tooLong(bytes: 5000)) { try AAMVARecord([UInt8](repeating: 0x40, count: 5000)) }
        // A value with a control character inside.
        #expect(throws: AAMVAError.invalidElement(index: 1)) { try AAMVARecord(Self.bytes(Self.example.replacingOccurrences(of: "T64235789", with: "T642\u{7}35789"))) }
    }

    @Test func missingMandatoryElementsAreNamed() {
        for (element, line) in [("DAQ", "DAQT64235789\n"), ("DCS", "DCSSAMPLE\n"), ("DBB", "DBB06061986\n"), ("DBA", "DBA12102024\n")] {
            let text = Self.example.replacingOccurrences(of: line, with: "")
            #expect(throws: AAMVAError.missingElement(element)) { try AAMVARecord(Self.bytes(text)).validated() }
        }
        #expect(throws: AAMVAError.invalidDate(element: "DBA")) {
            try AAMVARecord(Self.bytes(Self.example.replacingOccurrences(of: "DBA12102024", with: "DBA13402024"))).validated()
        }
    }

    @Test func withoutTheAddressElementsTheRecordHasNoAddress() throws {
        let text = Self.example.replacingOccurrences(of: "DAG2300 WEST BROAD STREET\n", with: "").replacingOccurrences(of: "DAIRICHMOND\n", with: "")
        let record = try AAMVARecord(Self.bytes(text)).validated()
        #expect(!record.hasAddress)
        #expect(record.street == nil && record.city == nil)
    }

    @Test func theDescriptionSaysNothingPersonal() throws {
        let record = try AAMVARecord(Self.bytes(Self.example))
        for shown in [record.description, String(describing: record), String(reflecting: record), "\(PDF417Symbol(bytes: Self.bytes(Self.example), corners: []))"] {
            #expect(!shown.contains("SAMPLE") && !shown.contains("T64235789") && !shown.contains("RICHMOND"))
        }
    }

    /// Every record of the generated data (both splits), written by scripts/barcode-data/aamva.py,
    /// parses to the fields the generator says it wrote.
    @Test func generatedRecordsRoundTrip() throws {
        guard let data = BarcodeDataSet() else {
            Issue.record(Comment(rawValue: BarcodeDataSet.missing))
            return
        }
        var checked = 0
        for split in BarcodeDataSet.Split.allCases {
            for scene in try data.scenes(split) {
                guard let bytes = scene.record, let fields = scene.fields else { continue }
                let record = try AAMVARecord(bytes).validated()
                #expect(record.issuerIdentificationNumber == fields.iin && record.version == fields.version, "\(scene.name)")
                #expect(record.documentKind.rawValue == fields.kind && record.country == fields.country, "\(scene.name)")
                #expect(record.documentNumber == fields.documentNumber && record.familyName == fields.familyName, "\(scene.name)")
                #expect(record.firstName == fields.firstName && record.middleNames == fields.middleNames, "\(scene.name)")
                #expect(try record.date("DBB")?.iso8601 == fields.dateOfBirth, "\(scene.name)")
                #expect(try record.date("DBA")?.iso8601 == fields.expiryDate, "\(scene.name)")
                #expect(try record.date("DBD")?.iso8601 == fields.issuingDate, "\(scene.name)")
                #expect(record.sex == fields.sex, "\(scene.name)")
                #expect(record.street == fields.street && record.city == fields.city, "\(scene.name)")
                #expect(record.jurisdiction == fields.jurisdiction && record.postalCode == fields.postalCode, "\(scene.name)")
                #expect(record.hasAddress == (fields.street != nil), "\(scene.name)")
                checked += 1
            }
        }
        #expect(checked > 200)
    }
}
