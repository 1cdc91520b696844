import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on 127.0.0.1 in front of the backend that resets (RST, SO_LINGER 0) the
/// first `resets` connections once the station sent `afterBytes` on them: a connection
/// reset in the middle of an upload.
final class ResettingProxy: Sendable {
    private let remaining: Mutex<Int>
    private let done = Mutex(0)
    let afterBytes: Int

    private init(resets: Int, afterBytes: Int) {
        remaining = Mutex(resets)
        self.afterBytes = afterBytes
    }

    /// How many connections it reset.
    var resetCount: Int { done.withLock { $0 } }

    static func with<T: Sendable>(targetPort: Int, resets: Int, afterBytes: Int, _ body: (ResettingProxy, Int) async throws -> T) async throws -> T {
        let proxy = ResettingProxy(resets: resets, afterBytes: afterBytes)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                let resetAfter = proxy.remaining.withLock { count -> Int? in
                    guard count > 0 else { return nil }
                    count -= 1
                    return proxy.afterBytes
                }
                return ClientBootstrap(group: inbound.eventLoop).connect(host: "127.0.0.1", port: targetPort).flatMapThrowing { outbound in
                    // Both channels live on the same event loop, so both pipelines are ours to change here.
                    try outbound.pipeline.syncOperations.addHandler(Glue(peer: inbound, resetAfter: nil, proxy: proxy))
                    try inbound.pipeline.syncOperations.addHandler(Glue(peer: outbound, resetAfter: resetAfter, proxy: proxy))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            let value = try await body(proxy, server.localAddress?.port ?? 0)
            try await server.close()
            return value
        } catch {
            try? await server.close()
            throw error
        }
    }

    fileprivate func counted() { done.withLock { $0 += 1 } }
}

/// Copies bytes to the peer; on the station's side, resets after the limit.
private final class Glue: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let peer: any Channel
    private let resetAfter: Int?
    private let proxy: ResettingProxy
    private var seen = 0

    init(peer: any Channel, resetAfter: Int?, proxy: ResettingProxy) {
        self.peer = peer
        self.resetAfter = resetAfter
        self.proxy = proxy
    }

    func channelActive(context: ChannelHandlerContext) {
        context.read()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        seen += buffer.readableBytes
        if let resetAfter, seen >= resetAfter {
            proxy.counted()
            let channel = context.channel
            (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                channel.close(promise: nil)
            }
            peer.close(promise: nil)
            return
        }
        peer.writeAndFlush(buffer, promise: nil)
        context.read()
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
