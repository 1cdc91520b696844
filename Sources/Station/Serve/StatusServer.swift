public import Backend
import Foundation
public import Hummingbird
import NIOCore
public import Logging
public import Prometheus
import CoreMetrics

/// `/health` (readiness, per device), `/health/live` (liveness) and `/metrics`
/// (Prometheus text), on a port of their own that is not the display's, loopback by default.
public struct StatusServer: Sendable {
    let loop: StationLoop
    let outbox: Backend.Outbox?
    let registry: PrometheusCollectorRegistry
    let metrics: StationMetrics

    public init(loop: StationLoop, outbox: Backend.Outbox?, registry: PrometheusCollectorRegistry) {
        self.loop = loop
        self.outbox = outbox
        self.registry = registry
        self.metrics = StationMetrics(factory: PrometheusMetricsFactory(registry: registry))
    }

    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get("/health") { _, _ in
            let health = await loop.health(outbox: outbox)
            return Self.json(health, status: health.ready ? .ok : .serviceUnavailable)
        }
        router.get("/health/live") { _, _ in
            let health = await loop.health(outbox: outbox)
            return Self.json(health, status: health.live ? .ok : .serviceUnavailable)
        }
        router.get("/metrics") { _, _ in
            if let outbox, let stats = try? await outbox.stats() {
                metrics.outbox(depth: stats.records, bytes: stats.bytes, oldestAge: (try? await outbox.oldestAge()) ?? nil)
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        return router
    }

    public func makeApplication(
        host: String, port: Int, logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "idkiosk-status"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
