import Backend
import Foundation
import KioskTestKit
import Station
import VirtualPassport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `idkiosk serve` as a process, with the demo's stack: systemd's notifications, /health and
/// /metrics, a whole journey run by the autopilot, and SIGTERM in the middle of a journey.
@Suite(
    .serialized, .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)),
    .enabled(if: DemoStack.canStart, Comment(rawValue: "needs \(DemoStack.missing)")))
struct ServeIntegrationTests {
    /// Runs `body` with the demo's stack and stops it afterwards, also when `body` throws.
    func withStack(_ options: DemoStack.Options, _ body: (DemoStack) async throws -> Void) async throws {
        let stack = try await DemoStack(options)
        do {
            try await body(stack)
        } catch {
            await stack.stop()
            throw error
        }
        await stack.stop()
    }

    @Test func readyWatchdogStatusHealthAndMetrics() async throws {
        let notify = try NotifySocket()
        var options = DemoStack.Options()
        options.environment = ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000"]
        try await withStack(options) { stack in
            let ready = await notify.receive(until: "READY=1")
            #expect(ready.last?.contains("READY=1") == true, "\(ready)")
            #expect(ready.last?.contains("STATUS=idle") == true, "\(ready)")
            let watchdog = await notify.receive(until: "WATCHDOG=1", limit: .seconds(10))
            #expect(watchdog.last == "WATCHDOG=1")
            let health = try await stack.get("/health")
            #expect(health.status == 200, "\(health.body)")
            let object = try JSONSerialization.jsonObject(with: Data(health.body.utf8)) as? [String: Any]
            #expect(object?["ready"] as? Bool == true)
            // Each device as the display's DeviceStatus lists it (docs/operators.md).
            let devices = object?["devices"] as? [[String: Any]]
            #expect(devices?.compactMap { $0["device"] as? String }.sorted() == ["camera", "reader"])
            #expect(devices?.allSatisfy { $0["available"] as? Bool == true } == true)
            // The MRZ model, loaded at start.
            let models = object?["models"] as? [[String: Any]]
            #expect(models?.first?["name"] as? String == "mrz-ocrb-v1.bin")
            #expect(models?.first?["available"] as? Bool == true)
            let metrics = try await stack.get("/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.body.contains("idkiosk_outbox_depth"))
            let status = await stack.serve.terminate()
            #expect(status == 0, "\(stack.serve.output.suffix(2000))")
            let stopping = await notify.receive(until: "STOPPING=1", limit: .seconds(5))
            #expect(stopping.last?.contains("STOPPING=1") == true)
        }
    }

    @Test func theAutopilotsJourneyEndsWithTheBackendsDecision() async throws {
        var options = DemoStack.Options()
        options.autopilot = 1
        try await withStack(options) { stack in
            try await stack.waitForOutput("autopilot: the journey succeeded", limit: .seconds(120))
            try await stack.waitForOutput("backend decision for ", limit: .seconds(60))
            let output = stack.serve.output
            // The simulated person is the one whose portrait the chip holds, alive and turning: PASSED.
            #expect(output.contains(": PASSED"), "\(output.suffix(3000))")
            // Nothing personal in the daemon's log: not the name, the document number or a date of the MRZ.
            for secret in ["SPECIMEN", "D23145890", "900101", "341231"] { #expect(!output.contains(secret), "\(secret) in the log") }
            let metrics = try await stack.get("/metrics")
            #expect(metrics.body.contains("idkiosk_journeys_total{outcome=\"success\"} 1"), "\(metrics.body)")
            #expect(metrics.body.contains("idkiosk_chip_read_apdus"))
        }
    }

    /// The same journey with someone other than the chip's holder in front of the camera
    /// (the backend's similarity check rejects it), or a print of the holder held up (it
    /// answers the LED like paper and does not turn like a head: the backend's own liveness
    /// check rejects it).
    @Test(arguments: [("hopper", "genuine"), ("collins", "print")])
    func anotherPersonOrAPrintEndsRejected(person: String, presentation: String) async throws {
        var options = DemoStack.Options()
        options.autopilot = 1
        options.person = person
        options.presentation = presentation
        try await withStack(options) { stack in
            try await stack.waitForOutput("backend decision for ", limit: .seconds(240))
            let output = stack.serve.output
            #expect(output.contains(": REJECTED"), "\(person) \(presentation): \(output.suffix(3000))")
        }
    }

    /// The chip proves itself through pcscd: a passport with Active and Chip Authentication
    /// passes them at the backend; its clone (the same data groups, other keys) is REJECTED
    /// for them. Its DG11 and DG12 reach the backend's IDResult.
    @Test(arguments: [false, true])
    func aClonedChipIsRejectedAtTheBackend(cloned: Bool) async throws {
        var options = DemoStack.Options()
        options.autopilot = 1
        options.passportOptions = ["--active-authentication", "--chip-authentication", "--place-of-birth", "ZENITH<UTOPIA", "--date-of-issue", "20241231"]
            + (cloned ? ["--clone"] : [])
        try await withStack(options) { stack in
            try await stack.waitForOutput("backend decision for ", limit: .seconds(240))
            let details = try await stack.backendDetails()
            let checks = Dictionary(details.capabilities.chipAuthentication.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            #expect(checks["passiveAuthentication"]?.decision == .PASSED, "\(details.capabilities.chipAuthentication)")
            if cloned {
                #expect(checks["activeAuthentication"]?.reason == "ACTIVE_AUTHENTICATION_FAILED", "\(details.capabilities.chipAuthentication)")
                #expect(checks["chipAuthentication"]?.reason == "CHIP_AUTHENTICATION_FAILED")
                #expect(details.decision.type == .REJECTED)
            } else {
                #expect(checks["activeAuthentication"]?.decision == .PASSED, "\(details.capabilities.chipAuthentication)")
                #expect(checks["chipAuthentication"]?.decision == .PASSED)
                #expect(details.decision.type == .PASSED, "\(details.capabilities.all.filter { $0.decision != .PASSED })")
            }
            #expect(details.idResult?.placeOfBirth == "ZENITH, UTOPIA")
            #expect(details.idResult?.issuingDate == "2024-12-31")
            // The daemon's log names the checks, never the holder's details.
            #expect(!stack.serve.output.contains("ZENITH"))
        }
    }

    @Test func sigtermMidJourneyCancelsWipesAndExitsCleanly() async throws {
        var options = DemoStack.Options()
        options.autopilot = 1
        options.autopilotPauseMs = 4000
        try await withStack(options) { stack in
            try await stack.waitForOutput("journey started", limit: .seconds(60))
            let status = await stack.serve.terminate()
            #expect(status == 0, "\(stack.serve.output.suffix(2000))")
            #expect(stack.serve.output.contains("shutting down mid-journey"))
        }
    }
}
