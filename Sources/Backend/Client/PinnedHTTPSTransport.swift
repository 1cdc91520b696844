import AsyncHTTPClient
import Foundation
import KioskTime
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// HTTPS with public key pinning, for the calls of ``HTTPVerificationBackend`` when
/// ``SPKIPinning`` is configured.
///
/// AsyncHTTPClient 1.37 builds its TLS handlers from a `TLSConfiguration` alone, which
/// has no verification hook (docs/backend.md), so pinned calls take this path: one
/// connection per call, NIOSSL's client handler with a custom verification callback that
/// validates the presented chain with libcrypto and requires a pinned key in it
/// (NIOSSL checks the host name afterwards), and HTTP/1.1 written only after the
/// handshake completed. A refused chain fails the handshake: no request byte is sent.
struct PinnedHTTPSTransport: Sendable {
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
    }

    let pinning: SPKIPinning
    let group: any EventLoopGroup
    private let context: NIOSSLContext

    init(pinning: SPKIPinning, group: any EventLoopGroup) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        // Full verification keeps NIOSSL's host name check after our callback.
        tls.certificateVerification = .fullVerification
        self.context = try NIOSSLContext(configuration: tls)
        self.pinning = pinning
        self.group = group
    }

    /// One request on a new connection, closed afterwards.
    /// - Throws: ``BackendError`` (B) when the chain is refused, `HTTPClientError.deadlineExceeded`
    ///   after `timeout`, NIO's connection errors, `NIOTooManyBytesError` for an answer over `maxResponseBytes`.
    func execute(
        method: HTTPMethod, url: String, headers: HTTPHeaders, body: Data?, timeout: Duration, maxResponseBytes: Int,
        call: BackendError.Call
    ) async throws -> Answer {
        guard let components = URLComponents(string: url), components.scheme == "https", let host = components.host, !host.isEmpty else {
            throw BackendError(.secureConnection, call: call, message: "SPKI pinning needs an https:// base URL")
        }
        let port = components.port ?? 443
        let path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        let refusal = RefusalBox()
        do {
            return try await withThrowingTaskGroup(of: Answer?.self) { tasks in
                tasks.addTask {
                    try await exchange(host: host, port: port, path: path, method: method, headers: headers, body: body,
                                       timeout: timeout, maxResponseBytes: maxResponseBytes, refusal: refusal)
                }
                tasks.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { tasks.cancelAll() }
                guard let first = try await tasks.next(), let answer = first else { throw HTTPClientError.deadlineExceeded }
                return answer
            }
        } catch {
            switch refusal.value.withLock({ $0 }) {
            case .noPinnedKey?:
                throw BackendError(.secureConnection, call: call, message: "no pinned public key in the server's certificate chain")
            case .untrusted(let reason)?:
                throw BackendError(.secureConnection, call: call, message: "server certificate chain not trusted", cause: reason)
            case .unreadable?:
                throw BackendError(.secureConnection, call: call, message: "server certificate chain or trust roots unreadable")
            case nil:
                throw error
            }
        }
    }

    private func exchange(
        host: String, port: Int, path: String, method: HTTPMethod, headers: HTTPHeaders, body: Data?,
        timeout: Duration, maxResponseBytes: Int, refusal: RefusalBox
    ) async throws -> Answer {
        let (context, pinning) = (self.context, self.pinning)
        // An IP address is never sent as SNI; NIOSSL then checks the certificate against the address.
        let serverName = (try? SocketAddress(ipAddress: host, port: port)) == nil ? host : nil
        let (connectSeconds, _) = min(timeout, .seconds(10)).components
        let nanoseconds = timeout.wholeNanoseconds
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(max(connectSeconds, 1)))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    // The whole exchange is bounded: at the deadline the connection closes,
                    // which ends a handshake or a read that would otherwise wait for ever.
                    let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { channel.close(promise: nil) }
                    channel.closeFuture.whenComplete { _ in deadline.cancel() }
                    let handshake = channel.eventLoop.makePromise(of: Void.self)
                    let tls = try NIOSSLClientHandler(context: context, serverHostname: serverName) { certificates, promise in
                        let presented = certificates.compactMap { try? $0.toDERBytes() }
                        switch pinning.check(presented: presented) {
                        case .success:
                            promise.succeed(.certificateVerified(VerificationMetadata(nil)))
                        case .failure(let reason):
                            refusal.value.withLock { $0 = reason }
                            promise.succeed(.failed)
                        }
                    }
                    try channel.pipeline.syncOperations.addHandler(tls)
                    try channel.pipeline.syncOperations.addHandler(HandshakeWaiter(promise: handshake))
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    let wrapped = try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    return (wrapped, handshake.futureResult)
                }
            }
        let (asyncChannel, handshake) = channel
        return try await asyncChannel.executeThenClose { inbound, outbound in
            // Nothing is written before the server's chain was accepted.
            try await handshake.get()
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: headers)
            head.headers.replaceOrAdd(name: "Host", value: port == 443 ? host : "\(host):\(port)")
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            head.headers.replaceOrAdd(name: "Content-Length", value: String(body?.count ?? 0))
            try await outbound.write(.head(head))
            if let body, !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            try await outbound.write(.end(nil))

            var status = 0
            var responseHeaders = HTTPHeaders()
            var collected = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let response):
                    status = Int(response.status.code)
                    responseHeaders = response.headers
                case .body(var buffer):
                    guard collected.readableBytes + buffer.readableBytes <= maxResponseBytes else { throw NIOTooManyBytesError(maxBytes: maxResponseBytes) }
                    collected.writeBuffer(&buffer)
                case .end:
                    return Answer(status: status, headers: responseHeaders, body: Data(collected.readableBytesView))
                }
            }
            throw HTTPClientError.remoteConnectionClosed
        }
    }
}

/// Completes a promise when the TLS handshake is done, or fails it with the error that ended it.
private final class HandshakeWaiter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private var promise: EventLoopPromise<Void>?

    init(promise: EventLoopPromise<Void>) { self.promise = promise }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            promise?.succeed()
            promise = nil
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise?.fail(error)
        promise = nil
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise?.fail(ChannelError.ioOnClosedChannel)
        promise = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        promise?.fail(ChannelError.ioOnClosedChannel)
        promise = nil
    }
}

/// Why the verification callback refused the chain, read after the handshake failed.
private final class RefusalBox: Sendable {
    let value = Mutex<SPKIPinning.Refusal?>(nil)
}
