import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Imaging
public import Logging
import NIOCore
import ScanFlow
public import ServiceLifecycle

/// The station's local display server: the Default UI page, the events WebSocket, the camera
/// preview and the UI's configuration. Run it in the station's ServiceGroup.
///
/// Routes:
/// - `GET /`: the Default UI (`index.html`); its files at `/app.js`, `/app.css`, `/i18n/<language>.json`, `/logo`;
/// - `GET /events`: WebSocket; JSON text frames both ways (docs/events.md, docs/integrators.md);
/// - `GET /preview.mjpeg`: `multipart/x-mixed-replace` JPEG frames from the `PreviewSource`;
/// - `GET /config.json`: theme, languages, default language;
/// - `GET /handoff-qr.svg`: the running journey's Digital Identity hand-off address as a QR
///   code (SVG), 404 when none is on screen.
///
/// When a token is configured, every request must present it (`Authorization: Bearer`,
/// `?token=`, or the cookie the page sets), else 401.
public struct DisplayServer: Service {
    public let configuration: Configuration
    let hub: DisplayHub
    let preview: (any PreviewSource)?
    let logger: Logger
    let onServerRunning: @Sendable (Int) async -> Void

    /// - Parameters:
    ///   - configuration: address, token, theme and languages.
    ///   - hub: where events come from and commands go to.
    ///   - preview: the camera preview; `/preview.mjpeg` answers 404 without one.
    ///   - logger: for connections and refusals; never logs frame contents.
    ///   - onServerRunning: called with the bound port once the server listens.
    public init(
        configuration: Configuration,
        hub: DisplayHub,
        preview: (any PreviewSource)?,
        logger: Logger,
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.hub = hub
        self.preview = preview
        self.logger = logger
        self.onServerRunning = onServerRunning
    }

    /// Serves until the ServiceGroup shuts down gracefully (open WebSockets and previews are closed).
    ///
    /// - Throws: `DisplayServerError` when the configuration is unsafe or the UI files are
    ///   missing; the server's errors (e.g. the port is taken).
    public func run() async throws {
        try configuration.validate()
        let assets = try UIAssets.load(configuration)
        logger.info(
            "display server starting",
            metadata: [
                "host": "\(configuration.host)", "port": "\(configuration.port)",
                "token": "\(configuration.token == nil ? "none" : "required")", "languages": "\(assets.languages)",
            ]
        )
        let port = configuration.port
        let callback = onServerRunning
        let app = Application(
            router: makeRouter(assets: assets),
            server: .http1WebSocketUpgrade(webSocketRouter: makeWebSocketRouter()),
            configuration: .init(address: .hostname(configuration.host, port: port), serverName: "idkiosk-display"),
            onServerRunning: { channel in await callback(channel.localAddress?.port ?? port) },
            logger: logger
        )
        try await app.run()
    }

    // MARK: Routes

    func makeRouter(assets: UIAssets) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: TokenMiddleware(token: configuration.token))
        router.get("/") { _, _ in Self.file(assets.files["/index.html"]) }
        router.get("/config.json") { [configuration] _, _ in
            let body = ClientConfiguration(
                theme: configuration.theme, languages: assets.languages,
                defaultLanguage: configuration.defaultLanguage, preview: preview != nil
            )
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(body)))
            )
        }
        router.get("/preview.mjpeg") { [preview, logger] _, _ in
            guard let preview else { return Response(status: .notFound) }
            return MJPEGStream.response(frames: preview.previewFrames(), logger: logger)
        }
        router.get("/handoff-qr.svg") { [hub, logger] _, _ in
            guard let handoff = await hub.currentHandoff else { return Response(status: .notFound) }
            return Self.handoffQR(handoff, logger: logger)
        }
        router.get("/events") { _, _ in
            Response(status: .badRequest, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "WebSocket only\n")))
        }
        router.get("**") { request, _ in Self.file(assets.files[request.uri.path]) }
        return router
    }

    func makeWebSocketRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: TokenMiddleware(token: configuration.token))
        router.ws("/events") { [hub] inbound, outbound, _ in
            try await cancelWhenGracefulShutdown {
                try await Self.serve(hub: hub, inbound: inbound, outbound: outbound)
            }
        }
        return router
    }

    /// One display's WebSocket: the hub's frames out, the display's frames in, until either side ends.
    static func serve(hub: DisplayHub, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (id, frames) = await hub.connect()
        do {
            try await exchange(id: id, frames: frames, hub: hub, inbound: inbound, outbound: outbound)
        } catch {
            await hub.disconnect(id)
            throw error
        }
        await hub.disconnect(id)
    }

    private static func exchange(
        id: DisplayClientID, frames: AsyncStream<String>, hub: DisplayHub,
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
    ) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await text in frames {
                    try await outbound.write(.text(text))
                }
                return true
            }
            group.addTask {
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    switch message {
                    case .text(let text): await hub.receive(text, from: id)
                    case .binary: await hub.refuse(InputRefusal(.malformed, "frames are JSON text, not binary"), to: id)
                    }
                }
                return false
            }
            // The hub ended this display's frames (closed, or the display lagged): say goodbye.
            if try await group.next() == true {
                try? await outbound.close(.goingAway, reason: "display disconnected by the station")
            }
            group.cancelAll()
        }
    }

    /// The page may load and connect to the station only: no other network, no inline script.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
        + "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The hand-off's address as a QR code a phone's camera reads off the screen: SVG, so it
    /// stays sharp at any size, with the standard's quiet zone. Never cached: it holds a
    /// one-time token.
    static func handoffQR(_ handoff: DigitalHandoff, logger: Logger) -> Response {
        let code: QRCode
        do throws(ImagingError) {
            code = try QRCode(handoff.url, errorCorrection: .medium)
        } catch {
            // The backend's address does not fit a QR code (or is empty): the text below it remains.
            logger.error("hand-off address cannot be drawn as a QR code", metadata: ["provider": "\(handoff.provider)", "error": "\(error)"])
            return Response(status: .unprocessableContent)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "image/svg+xml", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'", .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(string: code.svg(label: "QR code of the address to open on your phone")))
        )
    }

    static func file(_ file: UIAssets.File?) -> Response {
        guard let file else { return Response(status: .notFound) }
        return Response(
            status: .ok,
            headers: [
                .contentType: file.contentType, .cacheControl: "no-cache",
                .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: file.bytes))
        )
    }
}

/// `GET /config.json`: what the page needs before it connects.
struct ClientConfiguration: Codable {
    var theme: Theme
    var languages: [String]
    var defaultLanguage: String
    /// Whether `/preview.mjpeg` has a source.
    var preview: Bool
}
