public import AsyncHTTPClient
public import Backend
import Crypto
public import Foundation
import KioskTime
public import Logging
import NIOCore
public import ServiceLifecycle

/// Delivers the queued callbacks: POST with ids and status only, signed with
/// `X-Signature: sha256=<hex HMAC-SHA256 of the body>` under the client's callback
/// secret, and retried with capped exponential backoff until a 2xx answer.
public struct CallbackSender: Service {
    public struct Configuration: Sendable {
        public var pollInterval: Duration = .seconds(1)
        public var requestTimeout: Duration = .seconds(10)
        /// Backoff between attempts of one callback (attempts are unlimited).
        public var backoff = RetryPolicy(maxAttempts: .max, baseDelay: .seconds(2), maxDelay: .seconds(600))
        public init() {}
    }

    let store: any ReferenceStore
    let httpClient: HTTPClient
    let configuration: Configuration
    let logger: Logger

    public init(store: any ReferenceStore, httpClient: HTTPClient, configuration: Configuration = .init(), logger: Logger) {
        self.store = store
        self.httpClient = httpClient
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        // Stops between deliveries on graceful shutdown; a queued callback stays queued.
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await deliverDue()
                do { try await Task.sleep(for: configuration.pollInterval) } catch { return }
            }
        }
    }

    /// One pass over the callbacks that are due.
    public func deliverDue() async {
        let due: [PendingCallback]
        // Claimed for longer than the deliveries of one pass can take.
        let lease = configuration.requestTimeout * 20 + .seconds(60)
        do { due = try await store.claimDueCallbacks(limit: 20, lease: lease) } catch {
            logger.error("callback queue unreadable", metadata: ["error": "\(error)"])
            return
        }
        for callback in due {
            let delivered = await deliver(callback)
            do {
                if delivered {
                    try await store.callbackDelivered(id: callback.id)
                } else {
                    let delay = configuration.backoff.backoff(attempt: callback.attempts + 1, random: Double.random(in: 0.5..<1))
                    try await store.callbackFailed(id: callback.id, retryIn: delay)
                }
            } catch {
                logger.error("callback queue update failed", metadata: ["error": "\(error)"])
            }
        }
    }

    private func deliver(_ callback: PendingCallback) async -> Bool {
        guard let secret = try? await store.callbackSecret(clientId: callback.clientId) else { return false }
        var request = HTTPClientRequest(url: callback.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-Signature", value: Self.signature(body: callback.body, secret: secret))
        request.body = .bytes(ByteBuffer(bytes: callback.body))
        do {
            let response = try await httpClient.execute(request, timeout: .nanoseconds(configuration.requestTimeout.wholeNanoseconds))
            _ = try? await response.body.collect(upTo: 64 << 10)
            let ok = (200..<300).contains(Int(response.status.code))
            logger.info("callback sent", metadata: ["callback": "\(callback.id)", "attempt": "\(callback.attempts + 1)", "status": "\(response.status.code)"])
            return ok
        } catch {
            logger.info("callback failed", metadata: ["callback": "\(callback.id)", "attempt": "\(callback.attempts + 1)", "error": "\(type(of: error))"])
            return false
        }
    }

    /// `sha256=` and the lowercase hex HMAC-SHA256 of the body.
    public static func signature(body: Data, secret: [UInt8]) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: secret))
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }
}
