import Backend
import Display
import Foundation
import Imaging
import KioskTestKit
import ReferenceBackend
import ScanFlow
import Station
import Synchronization
import Testing

/// The Authentication journey (seed 004) through the station loop: a display names the
/// enrollment, the station captures the face only, and the journey ends SUCCESS or FAILED
/// with the reference backend's decision; a reference that cannot be used ends it with L.
/// The backend's face checks are LabelledFaces here (which image shows whom); the real
/// comparison is FaceChecksTests' and the browser end-to-end test's.
@Suite struct AuthenticationStationTests {
    /// Pictures standing for faces: real JPEGs of different content.
    static func picture(_ seed: Int) -> [UInt8] {
        var image = RGBImage(width: 320, height: 240)
        for y in 0..<240 {
            for x in 0..<320 {
                let i = (y * 320 + x) * 3
                image.pixels[i] = UInt8((x * seed) & 0xFF)
                image.pixels[i + 1] = UInt8((y * 3 + seed * 17) & 0xFF)
                image.pixels[i + 2] = UInt8(((x + y) / 4) & 0xFF)
            }
        }
        return try! JPEGCodec().encode(image, quality: 85)
    }

    static let annaEnrolled = picture(3)
    static let annaToday = picture(5)
    static let ben = picture(7)

    static func faces() -> LabelledFaces {
        let faces = LabelledFaces()
        faces.label(Data(annaEnrolled), as: "anna")
        faces.label(Data(annaToday), as: "anna")
        faces.label(Data(ben), as: "ben")
        return faces
    }

    /// Anna's verification that PASSED, with her face, put in the backend's store as a
    /// station's finished journey would have left it.
    static func enrollment(_ station: StationHarness, decision: Decision = .PASSED) async throws -> String {
        let response = try #require(try await station.store.initiate(
            clientId: station.clientId,
            request: AccountRequest(customerInternalReference: "enrolment", workflowDefinition: WorkflowDefinition(key: 10013)),
            existingAccountId: nil, baseURL: "http://127.0.0.1"))
        let execution = response.workflowExecution.id
        let face = try #require(response.workflowExecution.credentials.first { $0.category == .FACEMAP })
        try await station.store.storePart(
            clientId: station.clientId, key: "enrolment-face-\(execution)", requestHash: [], executionId: execution, credentialId: face.id,
            classifier: .face, body: Data(annaEnrolled), answer: Data())
        let details = WorkflowExecutionDetails(
            account: response.account, createdAt: nil, completedAt: nil,
            workflow: .init(id: execution, status: .PROCESSED, definitionKey: 10013),
            decision: .init(type: decision, risk: .init(score: 10)), capabilities: .init(), idResult: nil, faceResult: nil)
        try await station.store.complete(executionId: execution, result: try JSONEncoder().encode(details), callback: nil)
        return execution
    }

    static func options(face: [UInt8], faces: LabelledFaces) -> StationHarness.Options {
        var options = StationHarness.Options()
        options.preset = .authentication
        options.start = [.reference]
        options.faces = faces
        options.face = face
        return options
    }

    static func results(_ station: StationHarness) -> [JourneyResult] {
        station.display.messages.compactMap { if case .finished(let result) = $0 { result } else { nil } }
    }

    @Test(arguments: [(true, JourneyResult.AuthenticationOutcome.SUCCESS), (false, .FAILED)])
    func theJourneyEndsWithTheBackendsAnswer(sameperson: Bool, outcome: JourneyResult.AuthenticationOutcome) async throws {
        try await StationHarness.with(Self.options(face: sameperson ? Self.annaToday : Self.ben, faces: Self.faces())) { station in
            try await station.display.waitForScreen("idle") { if case .idle(startBy: [.reference]) = $0 { true } else { false } }
            // Without a reference nothing starts at an Authentication station.
            station.loop.submit(.station(.startJourney()))
            let enrollment = try await Self.enrollment(station)
            await station.autopilot?.authenticate(.enrollment(enrollment))
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            #expect(station.display.screens.filter { $0 == .starting }.count == 1)
            let result = try #require(Self.results(station).first)
            #expect(result.isSuccess, "\(result)")
            #expect(result.authentication == outcome)
            // The face only: one credential, the face part with its liveness evidence.
            #expect(result.credentials.map(\.category) == [.face])
            try await station.display.waitForScreen("decision") { if case .decision(_, .some) = $0 { true } else { false } }
            guard case .decision(let reference, let decision?) = station.display.screens.last(where: {
                if case .decision(_, .some) = $0 { true } else { false }
            }) else { throw TestFailure("no decision") }
            #expect(reference != enrollment)
            #expect(decision == (sameperson ? "PASSED" : "REJECTED"))
            let parts = try await station.store.parts(executionId: reference)
            #expect(Set(parts.map(\.classifier.rawValue)) == ["FACE", "LIVENESS_0", "LIVENESS"])
            #expect(try await station.outbox.stats().records == 0)
        }
    }

    /// A reference the backend cannot use ends the journey before it starts, with L; the
    /// station idles again for the next person.
    @Test func anUnusableReferenceEndsWithL() async throws {
        var options = Self.options(face: Self.annaToday, faces: Self.faces())
        options.journeys = 2
        try await StationHarness.with(options) { station in
            try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
            let rejected = try await Self.enrollment(station, decision: .REJECTED)
            await station.autopilot?.authenticate(.enrollment(rejected))
            // The Authentication SDK's code: six characters (seed 004).
            try await station.display.waitForMessage("error L") { if case .error(let error) = $0 { error.code == "L00000" } else { false } }
            // Not a journey: no controller, nothing queued.
            #expect(Self.results(station).isEmpty)
            try await station.display.wait(for: "idle again") { entries in
                entries.filter { if case .screen(.idle) = $0 { true } else { false } }.count >= 2
            }
            // The next person, with a good reference, authenticates.
            let enrollment = try await Self.enrollment(station)
            await station.autopilot?.authenticate(.enrollment(enrollment))
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            #expect(Self.results(station).first?.authentication == .SUCCESS)
        }
    }

    /// A backend without the face models decides nothing: the journey ends with M.
    @Test func noDecisionAtTheBackendEndsWithM() async throws {
        let faces = Self.faces()
        try await StationHarness.with(Self.options(face: Self.annaToday, faces: faces)) { station in
            try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
            let enrollment = try await Self.enrollment(station)
            faces.mode = .modelsMissing
            await station.autopilot?.authenticate(.enrollment(enrollment))
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            let result = try #require(Self.results(station).first)
            #expect(!result.isSuccess)
            #expect(result.error?.code == "M00000", "\(result)")
        }
    }

    /// No decision within the wait (here: nothing reaches the backend) is a network
    /// problem the person may retry: A with the retrieval's digit, as seed 004 writes it.
    @Test func noDecisionInTimeIsA() async throws {
        var options = Self.options(face: Self.annaToday, faces: Self.faces())
        options.sender = false
        options.decisionWait = .milliseconds(300)
        try await StationHarness.with(options) { station in
            try await station.display.waitForScreen("idle") { if case .idle = $0 { true } else { false } }
            let enrollment = try await Self.enrollment(station)
            await station.autopilot?.authenticate(.enrollment(enrollment))
            try await station.display.waitForMessage("error A") { if case .error(let error) = $0 { error.code == "A50000" } else { false } }
        }
    }

    /// Offline, an Authentication is refused at once (E), whatever the offline policy: it
    /// needs the backend to know the enrollment, and no prepared execution names one.
    @Test func anAuthenticationNeverStartsOffline() async throws {
        let request = WorkflowProfile(preset: .authentication).accountRequest(reference: "kiosk-1", authentication: .enrollment("2f9c0d6e"))
        #expect(request.isAuthentication)
        #expect(request.workflowDefinition.key == WorkflowDefinition.authenticationKey)
        #expect(request.enrollmentTransactionReference == "2f9c0d6e")
        #expect(request.workflowDefinition.credentials?.map(\.category) == [.FACEMAP])
        let taking = WorkflowProfile(preset: .authentication).accountRequest(reference: "kiosk-1", authentication: .authenticationTransaction("7c1"))
        #expect(taking.authenticationTransactionReference == "7c1")
        #expect(taking.enrollmentTransactionReference == nil)
        let backend = SwitchableBackend()
        let starter = JourneyStarter(
            backend: backend, policy: OfflinePolicy(mode: .queue, preparedExecutions: 2),
            template: WorkflowProfile(preset: .passportChipFace).accountRequest(reference: "kiosk-prepared"), logger: StationHarness.logger)
        #expect(await starter.refill() == 2)
        backend.up.withLock { $0 = false }
        // A verification goes on offline from a prepared execution; an Authentication does not.
        let verification = try await starter.start(WorkflowProfile(preset: .passportChipFace).accountRequest(reference: "kiosk-2"))
        guard case .offline = verification else { throw TestFailure("a verification should start offline: \(verification)") }
        let error = await #expect(throws: BackendError.self) { try await starter.start(request) }
        #expect(error?.flowError.code.hasPrefix("E") == true)
        #expect(await starter.usablePrepared == 1)
    }
}

/// A backend that answers workflow initiations while `up`, and cannot be reached otherwise.
final class SwitchableBackend: VerificationBackend {
    let up = Mutex(true)
    /// The workflow initiations asked for, in order.
    let requests = Mutex<[AccountRequest]>([])

    func error(_ call: BackendError.Call) -> BackendError { BackendError(.noConnection, call: call, message: "unreachable") }
    func createAccount(_ request: AccountRequest) async throws(BackendError) -> AccountResponse {
        requests.withLock { $0.append(request) }
        guard up.withLock({ $0 }) else { throw error(.createAccount) }
        return AccountResponse(
            timestamp: "2026-11-24T12:00:00Z", account: Ref(id: UUID().uuidString), sdk: .init(token: "t"), consentItems: [],
            workflowExecution: .init(id: UUID().uuidString, credentials: []), dataCenter: .EU)
    }
    func updateAccount(id: String, _ request: AccountRequest) async throws(BackendError) -> AccountResponse { try await createAccount(request) }
    func uploadPart(_ upload: PartUpload) async throws(BackendError) -> PartResponse { throw error(.uploadPart) }
    func finalize(_ execution: ExecutionRef, extractionOnly: Bool) async throws(BackendError) -> StatusResponse { throw error(.finalize) }
    func status(_ execution: ExecutionRef) async throws(BackendError) -> StatusResponse { throw error(.status) }
    func retrieve(_ execution: ExecutionRef) async throws(BackendError) -> WorkflowExecutionDetails { throw error(.retrieve) }
    func probe() async throws(BackendError) {
        guard up.withLock({ $0 }) else { throw error(.token) }
    }
}
