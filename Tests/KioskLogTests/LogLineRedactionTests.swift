import KioskLog
import Testing

/// Log lines read back (journald, a file) for a support bundle: fields whose key names
/// personal data lose their value whole, credentials after Bearer/Basic go, and the text
/// patterns of `redact(_:)` still apply; what is not personal stays readable.
@Suite struct LogLineRedactionTests {
    let redactor = Redactor()

    @Test func personalFieldsLoseTheirValueInJournalLines() {
        let line = #"<6>idkiosk: decision surname=ERIKSSON documentNumber="L 898902" token=abc.def outcome=PASSED workflowExecution=e-1"#
        let redacted = redactor.redact(logLine: line)
        for value in ["ERIKSSON", "L 898902", "abc.def"] { #expect(!redacted.contains(value), "\(redacted)") }
        #expect(redacted.contains("outcome=PASSED"))
        #expect(redacted.contains("workflowExecution=e-1"))
        #expect(redacted.contains("surname=<redacted>"))
    }

    @Test func personalFieldsLoseTheirValueInJSONLines() {
        let line = #"{"clientSecret":"s3cr3t-value","level":"info","message":"token fetched","given_names":"ANNA MARIA"}"#
        let redacted = redactor.redact(logLine: line)
        #expect(!redacted.contains("s3cr3t-value"))
        #expect(!redacted.contains("ANNA MARIA"))
        #expect(redacted.contains(#""message":"token fetched""#), "\(redacted)")
    }

    @Test(arguments: ["Authorization: Bearer c2VjcmV0LXRva2Vu", "authorization: basic c3RhdGlvbjpzZWNyZXQ="])
    func credentialsAfterTheSchemeGo(header: String) {
        let redacted = redactor.redact(logLine: "<7>http: request \(header) sent")
        #expect(!redacted.contains("c2VjcmV0LXRva2Vu") && !redacted.contains("c3RhdGlvbjpzZWNyZXQ="), "\(redacted)")
        #expect(redacted.hasSuffix(" sent"))
    }

    @Test func theTextPatternsStillApply() {
        let redacted = redactor.redact(logLine: "<4>idkiosk: holder P<UTOERIKSSON<<ANNA<<<< born 1974-08-12")
        #expect(!redacted.contains("ERIKSSON") && !redacted.contains("1974-08-12"), "\(redacted)")
    }
}
