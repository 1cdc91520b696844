public import Backend
import Crypto
public import Foundation

/// A station provisioned with `idkiosk-backend clients add`; the secrets are shown once.
public struct ProvisionedClient: Sendable, CustomStringConvertible {
    public let id: String
    public let secret: String
    /// The key of the callbacks' HMAC signature.
    public let callbackSecret: String

    public var description: String { "ProvisionedClient(\(id), <secrets redacted>)" }
}

/// One workflow execution as the store holds it.
public struct ExecutionRow: Sendable {
    public var id: String
    public var accountId: String
    public var definitionKey: Int
    public var status: WorkflowStatus
    public var sessionTokenHash: [UInt8]
    public var tokenExpiresAt: Double
    public var createdAt: Double
    public var completedAt: Double?
    public var result: Data?
    public var customerReference: String
    public var userReference: String?
    public var callbackURL: String?
    /// An Authentication's enrollment: the execution whose face it is compared with.
    public var enrollmentId: String?
}

/// A stored part of a credential.
public struct StoredPart: Sendable {
    public var credentialId: String
    public var category: CredentialCategory
    public var classifier: PartClassifier
    public var body: Data
    /// The countries and document types the workflow accepts for the credential.
    public var filter: CredentialFilter?
}

/// An upload's stored answer, replayed when the same idempotency key comes again.
public struct IdempotentAnswer: Sendable {
    /// SHA-256 of what the first request carried; another request under the same key is a conflict.
    public var requestHash: [UInt8]
    public var status: Int
    public var body: Data
}

/// A callback the server queues when an execution completes.
public struct QueuedCallback: Sendable {
    public var clientId: String
    public var url: String
    public var body: Data

    public init(clientId: String, url: String, body: Data) {
        self.clientId = clientId
        self.url = url
        self.body = body
    }
}

/// A callback waiting for delivery.
public struct PendingCallback: Sendable {
    public var id: Int64
    public var clientId: String
    public var url: String
    public var body: Data
    public var attempts: Int
}

/// The reference backend's storage: clients, tokens, accounts, executions, parts,
/// idempotency records and the callback queue. Secrets and tokens are kept as hashes.
///
/// ``SQLiteReferenceStore`` (one file, the default) and ``PostgresReferenceStore``
/// (when a connection URL is configured) implement it and pass the same tests. Every
/// time comes from ``now``, never from the database's clock, so tests move it.
public protocol ReferenceStore: Sendable {
    /// The backend's time.
    var now: @Sendable () -> Date { get }

    /// Provisions a station; its secret is returned once and stored as a salted hash.
    func addClient(name: String) async throws -> ProvisionedClient
    /// The provisioned clients: id and name only, oldest first.
    func listClients() async throws -> [(id: String, name: String)]
    /// Whether `secret` is the client's; compared in constant time.
    func authenticate(clientId: String, secret: String) async throws -> Bool
    /// A new access token of `lifetime` seconds; expired ones are dropped.
    func issueToken(clientId: String, lifetime: Int) async throws -> String
    /// The client an unexpired access token belongs to.
    func client(forToken token: String) async throws -> String?
    /// Revokes every access token of a client.
    func revokeTokens(clientId: String) async throws
    func callbackSecret(clientId: String) async throws -> [UInt8]?

    /// Creates an account (or a new execution of the client's existing one) with its credentials.
    /// - Returns: nil when `existingAccountId` is not this client's.
    func initiate(clientId: String, request: AccountRequest, existingAccountId: String?, baseURL: String) async throws -> AccountResponse?
    /// The execution when it belongs to this client's account, else nil.
    func execution(clientId: String, accountId: String, executionId: String) async throws -> ExecutionRow?
    /// The execution when it belongs to any of this client's accounts, else nil (an
    /// Authentication's reference names the execution alone).
    func execution(clientId: String, executionId: String) async throws -> ExecutionRow?
    /// An Authentication the integrator's server created, taken by a station: a new session
    /// token of `lifetime` seconds replaces the first one.
    /// - Returns: nil unless the execution is this client's, an Authentication, and still INITIATED.
    func takeAuthentication(clientId: String, executionId: String, lifetime: Int, baseURL: String) async throws -> AccountResponse?
    func setStatus(executionId: String, _ status: WorkflowStatus) async throws
    func credentialCategory(executionId: String, credentialId: String) async throws -> CredentialCategory?

    /// The stored answer of an upload under this idempotency key.
    func idempotentAnswer(clientId: String, key: String) async throws -> IdempotentAnswer?
    /// Stores the part (replacing one of the same classifier) and its idempotent answer in
    /// one transaction, and moves the execution from INITIATED to ACQUIRED.
    /// - Throws: when the key already has an answer (a concurrent duplicate); nothing is stored then.
    func storePart(
        clientId: String, key: String, requestHash: [UInt8], executionId: String, credentialId: String,
        classifier: PartClassifier, body: Data, answer: Data
    ) async throws
    /// The execution's parts, ordered by classifier.
    func parts(executionId: String) async throws -> [StoredPart]
    /// Records the result, marks the execution PROCESSED and queues its callback, in one transaction.
    func complete(executionId: String, result: Data, callback: QueuedCallback?) async throws

    /// Claims callbacks whose next attempt is due: they are not handed out again before
    /// `lease` has passed, so backend processes sharing one database do not send the same
    /// callback at once, and a sender that dies leaves them to the next one.
    /// - Returns: the claimed callbacks, in id order.
    func claimDueCallbacks(limit: Int, lease: Duration) async throws -> [PendingCallback]
    func pendingCallbackCount() async throws -> Int
    func callbackDelivered(id: Int64) async throws
    func callbackFailed(id: Int64, retryIn: Duration) async throws

    /// The idempotency keys of the uploads stored for a client: one per delivered part.
    func deliveredKeys(clientId: String) async throws -> [String]
    /// How many parts a workflow execution holds.
    func partCount(executionId: String) async throws -> Int
    /// The version of the schema the database is migrated to.
    func schemaVersion() async throws -> Int
}


/// Hashing, random tokens and comparison shared by the stores and the server.
enum StoreSecrets {
    static func hash(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// 32 random bytes, base64url without padding.
    static func randomToken() -> String {
        Data(randomBytes(32)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    /// A new client's secrets and what is stored of them.
    static func newClient() -> (client: ProvisionedClient, salt: [UInt8], secretHash: [UInt8]) {
        let client = ProvisionedClient(id: UUID().uuidString.lowercased(), secret: randomToken(), callbackSecret: randomToken())
        let salt = randomBytes(16)
        return (client, salt, hash(salt + Array(client.secret.utf8)))
    }
}

extension StoredPart {
    /// A part read back from either database: nil when a stored name is not one this version knows.
    init?(credentialId: String, category: String?, classifier: String?, body: Data, filterJSON: Data?) {
        guard let category = category.flatMap(CredentialCategory.init(rawValue:)),
              let classifier = classifier.flatMap(PartClassifier.init(rawValue:)) else { return nil }
        self.init(
            credentialId: credentialId, category: category, classifier: classifier, body: body,
            filter: filterJSON.flatMap { try? JSONDecoder().decode(CredentialFilter.self, from: $0) }
        )
    }
}
