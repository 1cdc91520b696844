import Station
import Testing

/// The configuration file as a support bundle carries it: comments, secret values and URL
/// passwords removed and named; the rest as written, so support reads the station's file.
@Suite struct ConfigurationRedactionTests {
    @Test func secretsCommentsAndURLPasswordsAreRemovedAndNamed() {
        let text = """
            # the secret is hunter2-hunter2
            station:
              name: kiosk-7   # in the lobby
            backend:
              client-id: "station-7"
              client-secret-file: /etc/idkiosk/client.secret
              workflow-key: 10
              data-centers:
                EU: https://station:hunter3-hunter3@eu.example/api
                US: "http://user@us.example"
              spki-pins: ["YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="]
            display:
              token: display-secret-1234
            """
        let redaction = ConfigurationRedaction(text)
        for secret in ["hunter2", "hunter3", "lobby", "display-secret-1234", "user@"] { #expect(!redaction.text.contains(secret), "\(secret): \(redaction.text)") }
        // What is no secret stays: paths to secret files, the workflow's number, the pins, the hosts.
        for kept in ["client-secret-file: /etc/idkiosk/client.secret", "workflow-key: 10", "YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=", "name: kiosk-7",
                     "https://<removed>@eu.example/api", "token: \"<removed>\""] {
            #expect(redaction.text.contains(kept), "\(kept): \(redaction.text)")
        }
        #expect(redaction.removed.first == "2 comments (they may hold anything a person typed)")
        #expect(redaction.removed.contains("the user and password of a URL in backend.data-centers.EU (line 9)"), "\(redaction.removed)")
        #expect(redaction.removed.contains("the user and password of a URL in backend.data-centers.US (line 10)"))
        #expect(redaction.removed.contains("the value of display.token (line 13)"))
    }

    @Test func aHashInsideQuotesIsNoComment() {
        let redaction = ConfigurationRedaction("theme:\n  primary: \"#0b5cad\"")
        #expect(redaction.text.contains("primary: \"#0b5cad\""))
        #expect(redaction.removed.isEmpty)
    }

    @Test func theScrubberRemovesKnownSecretsWhereverTheyAre() {
        let scrubber = SecretScrubber([("client secret", "abc/def+ghi"), ("short", "1234")])
        let (text, found) = scrubber.scrub(#"{"x":"abc\/def+ghi"} and abc/def+ghi, 1234"#)
        #expect(!text.contains("abc"))
        #expect(found == ["client secret": 2])
        #expect(text.contains("1234"), "a value under 8 characters is no secret to look for")
    }
}
