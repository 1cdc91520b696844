import AsyncHTTPClient
import Backend
import Foundation
import KioskTestKit
import NIOSSL
import ReferenceBackend
import Testing

/// A root CA, an intermediate CA and a server certificate for the name localhost only, and a
/// second, unrelated root; made with the openssl command line for each test run. The pins
/// are computed by openssl too, the HPKP recipe, independently of the client's code.
struct TestPKI: Sendable {
    let directory: URL
    let root: NIOSSLCertificate
    let otherRoot: NIOSSLCertificate
    let serverTLS: TLSConfiguration
    let rootPin: String
    let intermediatePin: String
    let leafPin: String
    let otherRootPin: String

    static let shared: Result<TestPKI, any Error> = Result { try TestPKI() }

    private init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-pki-\(UUID().uuidString)")
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = """
        set -e
        key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null; }
        ca_ext='basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid'
        printf "$ca_ext" > ca.ext
        printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost\nauthorityKeyIdentifier=keyid' > leaf.ext
        for r in root other; do
            key $r
            openssl req -x509 -new -key $r.key -out $r.pem -days 2 -subj "/CN=idkiosk test $r CA" \\
                -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign' 2>/dev/null
        done
        key intermediate
        openssl req -new -key intermediate.key -out intermediate.csr -subj '/CN=idkiosk test intermediate CA' 2>/dev/null
        openssl x509 -req -in intermediate.csr -CA root.pem -CAkey root.key -CAcreateserial -days 2 -extfile ca.ext -out intermediate.pem 2>/dev/null
        key leaf
        openssl req -new -key leaf.key -out leaf.csr -subj '/CN=localhost' 2>/dev/null
        openssl x509 -req -in leaf.csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial -days 2 -extfile leaf.ext -out leaf.pem 2>/dev/null
        for c in root intermediate leaf other; do
            openssl x509 -in $c.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64 > $c.pin
        done
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("openssl could not make the test certificates (is openssl installed?)") }

        let file = { (name: String) throws -> String in try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) }
        let pin = { (name: String) throws -> String in try file("\(name).pin").trimmingCharacters(in: .whitespacesAndNewlines) }
        root = try NIOSSLCertificate(bytes: Array(try file("root.pem").utf8), format: .pem)
        otherRoot = try NIOSSLCertificate(bytes: Array(try file("other.pem").utf8), format: .pem)
        let chain = try [file("leaf.pem"), file("intermediate.pem")].map { try NIOSSLCertificate(bytes: Array($0.utf8), format: .pem) }
        let key = try NIOSSLPrivateKey(bytes: Array(try file("leaf.key").utf8), format: .pem)
        serverTLS = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        rootPin = try pin("root")
        intermediatePin = try pin("intermediate")
        leafPin = try pin("leaf")
        otherRootPin = try pin("other")
    }
}

/// Public key pinning against the reference backend serving real TLS on 127.0.0.1.
@Suite struct PinningTests {
    /// A journey's first calls with these pins; the backend counts what reached HTTP.
    func createAccount(pins: [String], trust: NIOSSLCertificate? = nil, host: String = "localhost") async throws -> (Result<AccountResponse, BackendError>, requests: Int) {
        let pki = try TestPKI.shared.get()
        return try await LoopbackBackend.with(tls: pki.serverTLS) { backend in
            let pinning = try SPKIPinning(base64SHA256: pins, trustRoots: .certificates([trust ?? pki.root]))
            let client = backend.client { configuration in
                configuration.baseURL = "https://\(host):\(backend.port)"
                configuration.pinning = pinning
            }
            let result: Result<AccountResponse, BackendError>
            do throws(BackendError) { result = .success(try await client.createAccount(Fixtures.account())) } catch { result = .failure(error) }
            return (result, await backend.faults.requestCount(pathContains: "/"))
        }
    }

    @Test func matchingLeafPinPasses() async throws {
        let (result, requests) = try await createAccount(pins: [TestPKI.shared.get().leafPin])
        let account = try result.get()
        #expect(!account.workflowExecution.id.isEmpty)
        #expect(requests == 2)  // token and account
    }

    @Test func pinOnTheIntermediateOrTheRootPasses() async throws {
        let pki = try TestPKI.shared.get()
        #expect(try await createAccount(pins: [pki.intermediatePin]).0.get().account.id.isEmpty == false)
        // The server does not send its root: the pin is found in the validated chain.
        #expect(try await createAccount(pins: [pki.rootPin]).0.get().account.id.isEmpty == false)
        // One matching pin among others (a backup pin) is enough.
        #expect(try await createAccount(pins: [pki.otherRootPin, pki.leafPin]).0.get().account.id.isEmpty == false)
    }

    @Test func wrongPinFailsWithBBeforeAnythingIsSent() async throws {
        let pki = try TestPKI.shared.get()
        for pins in [[pki.otherRootPin], [Data(repeating: 7, count: 32).base64EncodedString()]] {
            let (result, requests) = try await createAccount(pins: pins)
            guard case .failure(let error) = result else { Issue.record("a wrong pin connected"); continue }
            #expect(error.kind == .secureConnection)
            #expect(error.code == "secureConnection.token")  // the token call comes first
            #expect(error.isRetryable == false)
            #expect(error.message.contains("pinned"))
            #expect(requests == 0)
        }
    }

    /// `diag backend`'s token request goes the same pinned way: a matching pin gets a token
    /// and the backend's clock; a wrong one fails TLS, and nothing reaches HTTP.
    @Test func theDiagnosticProbeUsesThePins() async throws {
        let pki = try TestPKI.shared.get()
        for (pins, good) in [([pki.leafPin], true), ([pki.otherRootPin], false)] {
            let (probe, requests) = try await LoopbackBackend.with(tls: pki.serverTLS) { backend in
                let pinning = try SPKIPinning(base64SHA256: pins, trustRoots: .certificates([pki.root]))
                let client = backend.client { configuration in
                    configuration.baseURL = "https://localhost:\(backend.port)"
                    configuration.pinning = pinning
                }
                return (await client.diagnose(), await backend.faults.requestCount(pathContains: "/"))
            }
            #expect(probe.tokenIssued == good)
            if good {
                #expect(probe.httpStatus == 200)
                #expect(abs(try #require(probe.clockSkewSeconds)) < 5)
            } else {
                #expect(probe.error?.kind == .secureConnection)
                #expect(probe.httpStatus == nil)
                #expect(requests == 0)
            }
        }
    }

    @Test func pinDoesNotReplaceChainValidation() async throws {
        let pki = try TestPKI.shared.get()
        // The leaf's key is pinned, but the chain does not lead to a trusted root.
        let (untrusted, requests) = try await createAccount(pins: [pki.leafPin], trust: pki.otherRoot)
        guard case .failure(let error) = untrusted else { Issue.record("an untrusted chain connected"); return }
        #expect(error.code == "secureConnection.token")
        #expect(error.message.contains("not trusted"))
        #expect(requests == 0)
        // The certificate names localhost only: the address 127.0.0.1 fails NIOSSL's host name check.
        let (wrongName, _) = try await createAccount(pins: [pki.leafPin], host: "127.0.0.1")
        guard case .failure(let nameError) = wrongName else { Issue.record("a wrong host name connected"); return }
        #expect(nameError.kind == .secureConnection)
    }

    @Test func withoutPinsTheHTTPClientsCAValidationDecides() async throws {
        let pki = try TestPKI.shared.get()
        try await LoopbackBackend.with(tls: pki.serverTLS) { backend in
            for (trust, succeeds) in [(pki.root, true), (pki.otherRoot, false)] {
                var tls = TLSConfiguration.makeClientConfiguration()
                tls.trustRoots = .certificates([trust])
                // AHC's pool retries a failing TLS connection until the connect timeout: keep it short.
                let httpClient = HTTPClient(
                    eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls, timeout: .init(connect: .seconds(2)))
                )
                var configuration = HTTPVerificationBackend<ContinuousClock>.Configuration(
                    baseURL: "https://localhost:\(backend.port)", clientId: backend.station.id, clientSecret: backend.station.secret
                )
                configuration.retry = RetryPolicy(maxAttempts: 1)
                let client = HTTPVerificationBackend(configuration: configuration, httpClient: httpClient, clock: ContinuousClock(), logger: LoopbackBackend.logger)
                let result: Result<AccountResponse, BackendError>
                do throws(BackendError) { result = .success(try await client.createAccount(Fixtures.account())) } catch { result = .failure(error) }
                try await httpClient.shutdown()
                switch result {
                case .success: #expect(succeeds)
                case .failure(let error):
                    #expect(!succeeds, "\(error)")
                    #expect(error.code == "secureConnection.token")
                }
            }
        }
    }

    @Test func pinningRefusesPlainHTTP() async throws {
        let pinning = try SPKIPinning(base64SHA256: [TestPKI.shared.get().leafPin])
        try await LoopbackBackend.with { backend in
            let client = backend.client { $0.pinning = pinning }
            let error = await #expect(throws: BackendError.self) { try await client.createAccount(Fixtures.account()) }
            #expect(error?.code == "secureConnection.token")
            #expect(await backend.faults.requestCount(pathContains: "/") == 0)
        }
    }

    @Test func pinsMustBeSHA256InBase64() throws {
        #expect(throws: BackendError.self) { try SPKIPinning(base64SHA256: []) }
        #expect(throws: BackendError.self) { try SPKIPinning(base64SHA256: ["not base64!"]) }
        #expect(throws: BackendError.self) { try SPKIPinning(base64SHA256: [Data(repeating: 1, count: 20).base64EncodedString()]) }
        #expect(try SPKIPinning(base64SHA256: [Data(repeating: 1, count: 32).base64EncodedString()]).pins.count == 1)
    }
}
