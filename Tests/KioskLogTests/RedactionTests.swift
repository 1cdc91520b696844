import Foundation
import KioskLog
import Logging
import Testing

@Suite struct RedactionTests {
    // The ICAO Doc 9303 specimen: fictional, but shaped exactly like real personal data.
    static let mrzLine1 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
    static let mrzLine2 = "L898902C36UTO7408122F1204159ZE184226B<<<<<10"
    static let personal = [
        mrzLine1, mrzLine2, "ERIKSSON", "ANNA", "L898902C3", "740812", "1974-08-12", "anna@example.org",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl",
    ]

    func logger(_ format: StructuredLogHandler.Format = .journal) -> (Logger, @Sendable () -> [String]) {
        let (sink, lines) = LogSink.memory()
        let logger = Logger(label: "test") { StructuredLogHandler(label: $0, level: .trace, format: format, sink: sink) }
        return (logger, lines)
    }

    @Test(arguments: StructuredLogHandler.Format.allCases)
    func personalDataNeverReachesTheLog(format: StructuredLogHandler.Format) {
        let (log, lines) = logger(format)
        let mrz = Sensitive(Self.mrzLine1 + Self.mrzLine2)
        log.info("read chip for \(mrz)")
        log.info("mrz was \(Self.mrzLine2)")
        log.warning("holder ERIKSSON<<ANNA born 1974-08-12 mail anna@example.org")
        log.info("document", metadata: [
            "surname": "ERIKSSON", "givenNames": "ANNA", "document_number": "L898902C3", "birthDate": "740812",
            "sessionToken": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl",
            "note": "expires 120415 for L898902C36",
            "photo": .string(String(repeating: "/9j/4AAQSkZJRgABAQ", count: 10)),
        ])
        let text = lines().joined(separator: "\n")
        #expect(lines().count == 4)
        for value in Self.personal {
            #expect(!text.contains(value), "\(value) leaked into: \(text)")
        }
        #expect(!text.contains("/9j/4AAQ"))
        #expect(!text.contains("120415"))
    }

    /// The station's own handler, not only a support bundle's reading of the log, removes
    /// an HTTP credential wherever it appears: in the message or in a metadata value.
    @Test(arguments: StructuredLogHandler.Format.allCases)
    func credentialsNeverReachTheLog(format: StructuredLogHandler.Format) {
        let (log, lines) = logger(format)
        log.debug("request sent with Authorization: Bearer c2VjcmV0LXRva2Vu")
        log.debug("token request", metadata: ["header": "Basic c3RhdGlvbjpzZWNyZXQ", "retry": "bearer q1w2e3r4t5y6"])
        let text = lines().joined(separator: "\n")
        #expect(lines().count == 2)
        for value in ["c2VjcmV0LXRva2Vu", "c3RhdGlvbjpzZWNyZXQ", "q1w2e3r4t5y6"] {
            #expect(!text.contains(value), "\(value) leaked into: \(text)")
        }
        #expect(text.contains("Bearer <redacted>"), "\(text)")
        #expect(text.contains("Basic <redacted>"), "\(text)")
    }

    /// Words after the schemes' names that are no credential stay readable.
    @Test func theSchemesNamesAloneStay() {
        let (log, lines) = logger()
        log.info("chip read with Basic Access Control; bearer token refreshed")
        #expect(lines().first?.hasSuffix("chip read with Basic Access Control; bearer token refreshed") == true, "\(lines())")
        let line = Redactor().redact(logLine: "<6>idkiosk: Basic Access Control failed, trying PACE")
        #expect(line == "<6>idkiosk: Basic Access Control failed, trying PACE")
    }

    @Test func operationalDataSurvives() {
        let (log, lines) = logger()
        log.notice(
            "card connection broken",
            metadata: ["reader": "Virtual PCD 00 00", "call": "SCardTransmit", "status": "SCARD_E_NOT_TRANSACTED", "sw": "6982"])
        let line = lines().first ?? ""
        #expect(line.hasPrefix("<5>test: card connection broken"))
        #expect(line.contains("reader=\"Virtual PCD 00 00\""))
        #expect(line.contains("status=SCARD_E_NOT_TRANSACTED"))
        #expect(line.contains("sw=6982"))
    }

    @Test func jsonLinesAreValidJSON() throws {
        let (log, lines) = logger(.json)
        log.error("upload failed", metadata: ["code": "A00000", "attempt": "3"])
        let object = try JSONSerialization.jsonObject(with: Data(lines()[0].utf8)) as? [String: String]
        #expect(object?["level"] == "error")
        #expect(object?["message"] == "upload failed")
        #expect(object?["code"] == "A00000")
        #expect(object?["attempt"] == "3")
    }

    @Test func sensitiveWrapperNeverPrints() {
        let s = Sensitive("L898902C3")
        #expect("\(s)" == "<redacted>")
        #expect(String(reflecting: s) == "<redacted>")
        var dumped = ""
        dump(s, to: &dumped)
        #expect(!dumped.contains("L898902C3"))
        #expect(s.value == "L898902C3")
    }

    @Test(arguments: [
        ("documentNumber", true), ("surname", true), ("given_names", true), ("date-of-birth", true),
        ("sessionToken", true), ("can", true), ("reader", false), ("scan", false), ("status", false), ("call", false),
    ])
    func personalKeys(key: String, personal: Bool) {
        #expect(Redactor().isPersonal(key: key) == personal)
    }

    @Test func levelsMapToSyslogPriorities() {
        let (log, lines) = logger()
        log.debug("d")
        log.critical("c")
        #expect(lines() == ["<7>test: d", "<2>test: c"])
    }
}
