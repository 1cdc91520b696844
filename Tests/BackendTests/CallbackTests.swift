import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
import Backend
import Crypto
import Foundation
import KioskTestKit
import Hummingbird
import ReferenceBackend
import ServiceLifecycle
import Synchronization
import Testing

/// A callback receiver on 127.0.0.1 that refuses the first `failures` deliveries.
final class CallbackReceiver: Sendable {
    struct Delivery: Sendable {
        var body: Data
        var signature: String?
    }

    private let state: Mutex<(failures: Int, deliveries: [Delivery])>

    init(failures: Int) { state = Mutex((failures, [])) }

    var deliveries: [Delivery] { state.withLock { $0.deliveries } }

    func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.post("/callback") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 16)
            let signature = request.headers[HTTPField.Name("X-Signature")!]
            let refuse = self.state.withLock { state -> Bool in
                state.deliveries.append(Delivery(body: Data(body.readableBytesView), signature: signature))
                if state.failures > 0 {
                    state.failures -= 1
                    return true
                }
                return false
            }
            return Response(status: refuse ? .internalServerError : .ok)
        }
        return router
    }
}

@Suite struct CallbackTests {
    @Test func callbackCarriesIdsAndStatusOnlyIsSignedAndRetriedUntilAcknowledged() async throws {
        let receiver = CallbackReceiver(failures: 1)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0); continuation.finish() },
            logger: LoopbackBackend.logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: LoopbackBackend.logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let receiverPort = try #require(await iterator.next())

            try await LoopbackBackend.with { backend in
                let client = backend.client()
                let account = try await client.createAccount(Fixtures.account(callbackURL: "http://127.0.0.1:\(receiverPort)/callback"))
                let execution = ExecutionRef(account)
                let id = try account.credential(.ID)
                _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
                _ = try await client.finalize(execution)
                #expect(try await backend.store.pendingCallbackCount() == 1)

                var configuration = CallbackSender.Configuration()
                configuration.backoff = RetryPolicy(maxAttempts: .max, baseDelay: .zero, maxDelay: .zero)
                let sender = CallbackSender(store: backend.store, httpClient: backend.httpClient, configuration: configuration, logger: LoopbackBackend.logger)
                await sender.deliverDue()
                #expect(receiver.deliveries.count == 1)
                #expect(try await backend.store.pendingCallbackCount() == 1)
                await sender.deliverDue()
                #expect(receiver.deliveries.count == 2)
                #expect(try await backend.store.pendingCallbackCount() == 0)
                await sender.deliverDue()
                #expect(receiver.deliveries.count == 2)

                for delivery in receiver.deliveries {
                    let object = try #require(try JSONSerialization.jsonObject(with: delivery.body) as? [String: Any])
                    #expect(Set(object.keys) == ["callbackSentAt", "account", "workflowExecution"])
                    let workflow = try #require(object["workflowExecution"] as? [String: Any])
                    #expect(Set(workflow.keys) == ["id", "status"])
                    #expect(workflow["id"] as? String == execution.workflowExecutionId)
                    #expect(workflow["status"] as? String == "PROCESSED")
                    #expect((object["account"] as? [String: Any])?.keys.sorted() == ["id"])
                    let expected = CallbackSender.signature(body: delivery.body, secret: Array(backend.station.callbackSecret.utf8))
                    #expect(delivery.signature == expected)
                    let key = SymmetricKey(data: Array(backend.station.callbackSecret.utf8))
                    let mac = Array(HMAC<SHA256>.authenticationCode(for: delivery.body, using: key))
                    #expect(delivery.signature == "sha256=" + mac.map { String(format: "%02x", $0) }.joined())
                }
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
