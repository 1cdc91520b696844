import Backend
import Foundation
import KioskTestKit
import Station
import Testing

/// `idkiosk diag backend`'s checks against the real reference backend on loopback: each step
/// that fails names itself and stops the ones that depend on it.
@Suite struct BackendDiagnosticsTests {
    @Test func aReachableBackendThatKnowsTheStationPassesEveryStep() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let checks = await BackendDiagnostics(url: backend.baseURL).run { await client.diagnose() }
            #expect(checks.map(\.name) == ["url", "dns", "tcp", "token", "clock"])
            #expect(checks.worst == .pass, "\(checks)")
        }
    }

    @Test func refusedCredentialsFailTheTokenStepWithAHint() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client(secret: "not-the-secret")
            let checks = await BackendDiagnostics(url: backend.baseURL).run { await client.diagnose() }
            let token = try #require(checks.first { $0.name == "token" })
            #expect(token.status == .fail)
            #expect(token.hint?.contains("backend.client-id") == true)
            #expect(checks.filter { $0.status == .fail }.count == 1)
        }
    }

    @Test func aClosedPortFailsTCPAndNothingAfterIsTried() async throws {
        // A port just freed: nothing listens there.
        let port = freeTCPPort()
        var asked = false
        let checks = await BackendDiagnostics(url: "http://127.0.0.1:\(port)").run {
            asked = true
            return BackendProbe(tokenIssued: true, error: nil, httpStatus: 200, roundTrip: .zero, serverDate: nil, localDate: Date())
        }
        #expect(checks.map(\.name) == ["url", "dns", "tcp"])
        #expect(checks.last?.status == .fail)
        #expect(checks.last?.detail.contains("refused") == true, "\(checks)")
        #expect(!asked)
    }

    @Test func aPasswordInTheURLIsNeverShown() async {
        let port = freeTCPPort()
        let checks = await BackendDiagnostics(url: "http://station:pw-1234567@127.0.0.1:\(port)").run {
            BackendProbe(tokenIssued: true, error: nil, httpStatus: 200, roundTrip: .zero, serverDate: nil, localDate: Date())
        }
        #expect(checks.first?.detail.hasPrefix("http://<removed>@127.0.0.1:\(port)") == true, "\(checks)")
        #expect(!checks.contains { $0.detail.contains("pw-1234567") || ($0.hint ?? "").contains("pw-1234567") })
        let invalid = await BackendDiagnostics(url: "ftp://station:pw-1234567@127.0.0.1").run { BackendProbe(tokenIssued: true, error: nil, httpStatus: 200, roundTrip: .zero, serverDate: nil, localDate: Date()) }
        #expect(invalid.first?.detail.contains("pw-1234567") == false, "\(invalid)")
    }

    @Test func aNameThatDoesNotResolveFailsDNS() async {
        // .invalid never resolves (RFC 2606).
        let checks = await BackendDiagnostics(url: "https://backend.idkiosk.invalid").run {
            Issue.record("probed without an address")
            return BackendProbe(tokenIssued: false, error: nil, httpStatus: nil, roundTrip: .zero, serverDate: nil, localDate: Date())
        }
        #expect(checks.map(\.name) == ["url", "dns"])
        #expect(checks.last?.status == .fail)
    }

    @Test func aURLThatIsNoHTTPURLFailsFirst() async {
        let checks = await BackendDiagnostics(url: "ftp://example.org").run {
            BackendProbe(tokenIssued: false, error: nil, httpStatus: nil, roundTrip: .zero, serverDate: nil, localDate: Date())
        }
        #expect(checks.map(\.name) == ["url"])
        #expect(checks.worst == .fail)
    }

    /// The clocks, from the backend's `Date` header: a minute apart warns, ten minutes fail
    /// (session tokens and certificates are judged by time).
    @Test(arguments: [(0.0, DiagnosticCheck.Status.pass), (20, .pass), (-45, .warn), (120, .warn), (-600, .fail), (900, .fail)])
    func clockSkewIsJudged(skew: Double, expected: DiagnosticCheck.Status) async throws {
        let server = try #require(BackendProbe.httpDate("Tue, 24 Nov 2026 10:00:00 GMT"))
        let probe = BackendProbe(
            tokenIssued: true, error: nil, httpStatus: 200, roundTrip: .zero, serverDate: server, localDate: server.addingTimeInterval(skew))
        let check = try #require(BackendDiagnostics.judgeClock(probe))
        #expect(check.status == expected, "\(check)")
        #expect(check.detail.contains(skew >= 0 ? "ahead" : "behind"))
    }

    @Test func httpDatesAreParsedAsRFC9110Says() throws {
        let date = try #require(BackendProbe.httpDate("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(date.timeIntervalSince1970 == 784_111_777)
        #expect(BackendProbe.httpDate("yesterday") == nil)
    }
}
