import AsyncHTTPClient
import Display
import Foundation
import KioskTestKit
import NIOCore
import ScanFlow
import Testing

/// The display server over real sockets: a Hummingbird server on an ephemeral loopback port,
/// HummingbirdWSClient as the display, AsyncHTTPClient for the page and the preview.
@Suite struct DisplayServerTests {
    static let passport = Credential.Info(
        id: "id-1", category: .id, countries: ["AUT": [Document(.passport, .plastic)]], chipReading: true
    )
    static let initialized = DisplayMessage.initialized(credentials: [passport], consentItems: nil)

    @Test func aDisplayGetsTheReplayThenLiveEvents() async throws {
        try await TestDisplayServer.with { server in
            await server.hub.publish(.station(.idle(startBy: [.card, .touch])))
            await server.hub.publish(.flow(Self.initialized))
            await server.hub.publish(.flow(.credentialStarted(id: "id-1", isConfigured: true, parts: [.front])))
            await server.hub.publish(.flow(.step(.scanView(.front, .docFinder))))
            await server.hub.publish(.flow(.update(.extractionState(.moveCloser))))
            await server.hub.publish(.flow(.update(.extractionState(.holdStill))))
            await server.hub.publish(.flow(.inactivityWarning(remaining: .seconds(10))))

            let socket = TestDisplaySocket(url: server.events)
            // The idle screen was replaced by the journey; of the updates only the newest stays.
            try await socket.expectNext(.event(.flow(Self.initialized)))
            try await socket.expectNext(.event(.flow(.credentialStarted(id: "id-1", isConfigured: true, parts: [.front]))))
            try await socket.expectNext(.event(.flow(.step(.scanView(.front, .docFinder)))))
            try await socket.expectNext(.event(.flow(.update(.extractionState(.holdStill)))))

            await server.hub.publish(.flow(.step(.imageTaken(.front))))
            try await socket.expectNext(.event(.flow(.step(.imageTaken(.front)))))
            await server.hub.publish(.station(.outOfService(devices: [DeviceStatus(.camera, available: false, detail: "lost")])))
            try await socket.expectNext(.event(.station(.outOfService(devices: [DeviceStatus(.camera, available: false, detail: "lost")]))))
            await socket.close()
        }
    }

    @Test func commandsReachTheStationAndAnswersReachOnlyTheirDisplay() async throws {
        try await TestDisplayServer.with { server in
            await server.hub.publish(.station(.idle(startBy: [.touch])))
            let inputs = EventProbe(server.hub.inputs)
            let first = TestDisplaySocket(url: server.events)
            let second = TestDisplaySocket(url: server.events)
            try await first.expectNext(.event(.station(.idle(startBy: [.touch]))))
            try await second.expectNext(.event(.station(.idle(startBy: [.touch]))))

            first.send(#"{"version": 3, "type": "startJourney"}"#)
            let start = try #require(await inputs.next())
            #expect(start.0 == .station(.startJourney()))
            second.send(#"{"version": 3, "type": "userConsented", "itemId": "privacy", "decision": true}"#)
            let consent = try #require(await inputs.next())
            #expect(consent.0 == .flow(.userConsented(itemID: "privacy", decision: true)))
            #expect(consent.1 != start.1)

            // The station answers a stale command to the display that sent it, and to no other.
            await server.hub.send(.logicalError(.needToConsentFirst), to: consent.1)
            await server.hub.publish(.station(.starting))
            try await second.expectNext(.event(.flow(.logicalError(.needToConsentFirst))))
            try await second.expectNext(.event(.station(.starting)))
            try await first.expectNext(.event(.station(.starting)))
            await first.close()
            await second.close()
        }
    }

    @Test func badFramesAreRefusedAndTheConnectionStays() async throws {
        try await TestDisplayServer.with { server in
            await server.hub.publish(.station(.starting))
            let inputs = EventProbe(server.hub.inputs)
            let socket = TestDisplaySocket(url: server.events)
            try await socket.expectNext(.event(.station(.starting)))
            let bad: [(String, InputRefusal.Reason)] = [
                ("not json at all", .malformed),
                (#"["confirm"]"#, .malformed),
                (#"{"type": "confirm"}"#, .malformed),
                (#"{"version": 2, "type": "confirm"}"#, .unsupportedVersion),
                (#"{"version": 4, "type": "startJourney"}"#, .unsupportedVersion),
                (#"{"version": 3, "type": "selfie"}"#, .unknownType),
                (#"{"version": 3, "type": "startScanPart", "part": "spine"}"#, .invalidPayload),
                (#"{"version": 3, "type": "userConsented", "itemId": "privacy"}"#, .invalidPayload),
            ]
            for (text, reason) in bad {
                socket.send(text)
                guard case .refused(let refusal) = try await socket.next() else {
                    Issue.record("no refusal for \(text)")
                    continue
                }
                #expect(refusal.reason == reason, "\(text)")
            }
            socket.sendBinary([0x7B, 0x7D])
            guard case .refused(let refusal) = try await socket.next() else { throw TestFailure("binary frame not refused") }
            #expect(refusal.reason == .malformed)

            // Still connected, and only the valid command reached the station.
            socket.send(#"{"version": 3, "type": "confirm"}"#)
            #expect(await inputs.next()?.0 == .flow(.confirm))
            #expect(await inputs.next(within: .milliseconds(200)) == nil)
            await socket.close()
        }
    }

    @Test func theRefusalFrameIsVersionedJSON() async throws {
        try await TestDisplayServer.with { server in
            let socket = TestDisplaySocket(url: server.events)
            socket.send(#"{"version": 2, "type": "confirm"}"#)
            let text = try #require(await socket.received.next())
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(object["version"] as? Int == 3)
            #expect(object["type"] as? String == "commandRefused")
            #expect(object["reason"] as? String == "unsupportedVersion")
            #expect(object["supportedVersion"] as? Int == 3)
            await socket.close()
        }
    }

    @Test func thePageAndItsConfigurationAreServed() async throws {
        var configuration = DisplayServer.Configuration(port: 0, defaultLanguage: "de")
        configuration.theme.appearance = .dark
        try await TestDisplayServer.with(configuration: configuration) { server in
            let page = try await httpGet(server.base + "/")
            #expect(page.status == 200)
            #expect(page.headers.contains { $0.0.lowercased() == "content-type" && $0.1.hasPrefix("text/html") })
            #expect(String(decoding: page.body, as: UTF8.self).contains("<html"))
            let policy = page.headers.first { $0.0.lowercased() == "content-security-policy" }?.1 ?? ""
            #expect(policy.contains("default-src 'self'") && policy.contains("script-src 'self'") && !policy.contains("script-src 'self' 'unsafe-inline'"))

            let config = try await httpGet(server.base + "/config.json")
            #expect(config.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.body)) as? [String: Any])
            #expect(object["languages"] as? [String] == ["de", "en"])
            #expect(object["defaultLanguage"] as? String == "de")
            #expect(object["preview"] as? Bool == false)
            #expect((object["theme"] as? [String: Any])?["appearance"] as? String == "dark")

            #expect(try await httpGet(server.base + "/i18n/de.json").status == 200)
            #expect(try await httpGet(server.base + "/i18n/xx.json").status == 404)
            #expect(try await httpGet(server.base + "/../Package.swift").status == 404)
            #expect(try await httpGet(server.base + "/preview.mjpeg").status == 404)
        }
    }

    @Test func anOperatorsLanguageFileIsOffered() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("display-lang-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"language": "Français"}"#.utf8).write(to: directory.appendingPathComponent("fr.json"))
        let configuration = DisplayServer.Configuration(port: 0, languagesDirectory: directory.path)
        try await TestDisplayServer.with(configuration: configuration) { server in
            let config = try await httpGet(server.base + "/config.json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.body)) as? [String: Any])
            #expect(object["languages"] as? [String] == ["de", "en", "fr"])
            #expect(String(decoding: try await httpGet(server.base + "/i18n/fr.json").body, as: UTF8.self).contains("Français"))
        }
    }

    @Test func anOperatorsOwnPageReplacesTheDefaultUI() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("display-ui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("i18n"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<html><body>our own kiosk page</body></html>".utf8).write(to: directory.appendingPathComponent("index.html"))
        try Data(#"{"language": "Nederlands"}"#.utf8).write(to: directory.appendingPathComponent("i18n/nl.json"))
        let configuration = DisplayServer.Configuration(port: 0, defaultLanguage: "nl", uiDirectory: directory.path)
        try await TestDisplayServer.with(configuration: configuration) { server in
            #expect(String(decoding: try await httpGet(server.base + "/").body, as: UTF8.self).contains("our own kiosk page"))
            #expect(try await httpGet(server.base + "/app.js").status == 404)
            let config = try await httpGet(server.base + "/config.json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.body)) as? [String: Any])
            #expect(object["languages"] as? [String] == ["nl"])
        }
    }

    @Test func aMissingUserInterfaceStopsTheServerWithWhereItLooked() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("display-empty-\(UUID().uuidString)").path
        let server = DisplayServer(
            configuration: .init(port: 0, uiDirectory: empty), hub: DisplayHub(logger: TestDisplayServer.logger), preview: nil,
            logger: TestDisplayServer.logger
        )
        await #expect(throws: DisplayServerError.userInterfaceMissing(searched: [empty])) { try await server.run() }
        var theme = Theme()
        theme.primary = Theme.Value("red; background: url(http://example.org)")
        let styled = DisplayServer(
            configuration: .init(port: 0, theme: theme), hub: DisplayHub(logger: TestDisplayServer.logger), preview: nil,
            logger: TestDisplayServer.logger
        )
        await #expect(throws: DisplayServerError.invalidTheme(colours: ["primary"])) { try await styled.run() }
    }

    @Test func theMJPEGPreviewDeliversTheSourcesFrames() async throws {
        let frames: [[UInt8]] = (1...3).map { index in [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: UInt8(index), count: 100 * index) + [0xFF, 0xD9] }
        let source = ScriptedPreview(frames: frames)
        try await TestDisplayServer.with(preview: source) { server in
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: server.base + "/preview.mjpeg"), timeout: .seconds(10))
            #expect(response.status == .ok)
            let contentType = try #require(response.headers.first(name: "content-type"))
            #expect(contentType.hasPrefix("multipart/x-mixed-replace; boundary="))
            let boundary = String(contentType.split(separator: "=").last ?? "")
            var received: [UInt8] = []
            var parts: [[UInt8]] = []
            for try await chunk in response.body {
                received += Array(chunk.readableBytesView)
                parts = MultipartParser.parts(received, boundary: boundary)
                if parts.last == frames.last { break }
            }
            // A viewer that starts reading late gets the newest frames (the stream keeps two):
            // whatever arrived is the end of the source's frames, in order, whole.
            #expect(parts.count >= 2)
            #expect(parts == Array(frames.suffix(parts.count)))
        }
        // Leaving the stream ended the source's stream for that viewer.
        #expect(await source.viewersEnded() == 1)
    }

    @Test func gracefulShutdownClosesOpenWebSocketsAndPreviews() async throws {
        let source = ScriptedPreview(frames: [[0xFF, 0xD8, 0xFF, 0xD9]])
        let socket = try await TestDisplayServer.with(preview: source) { server in
            await server.hub.publish(.station(.starting))
            let socket = TestDisplaySocket(url: server.events)
            try await socket.expectNext(.event(.station(.starting)))
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: server.base + "/preview.mjpeg"), timeout: .seconds(10))
            var iterator = response.body.makeAsyncIterator()
            #expect(try await iterator.next() != nil)
            return socket
        }
        // `with` returned, so the server shut down although both streams were open; the socket ended too.
        try await withDeadline(.seconds(10), "client sees the close") { try? await socket.connection.value }
        #expect(await socket.received.next(within: .milliseconds(100)) == nil)
    }
}

/// A preview source that sends its frames to each viewer, then stays open until the viewer leaves.
actor ScriptedPreview: PreviewSource {
    let frames: [[UInt8]]
    private var ended = 0

    init(frames: [[UInt8]]) {
        self.frames = frames
    }

    nonisolated func previewFrames() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        for frame in frames { continuation.yield(frame) }
        continuation.onTermination = { _ in Task { await self.viewerEnded() } }
        return stream
    }

    private func viewerEnded() { ended += 1 }

    /// How many viewers' streams ended, after waiting briefly for the termination to arrive.
    func viewersEnded() async -> Int {
        for _ in 0..<100 where ended == 0 {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return ended
    }
}

/// Splits a multipart/x-mixed-replace body into its complete parts' bodies (by Content-Length).
enum MultipartParser {
    static func parts(_ bytes: [UInt8], boundary: String) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var index = 0
        let marker = Array("--\(boundary)\r\n".utf8)
        while index + marker.count <= bytes.count, Array(bytes[index..<index + marker.count]) == marker {
            index += marker.count
            guard let end = find([13, 10, 13, 10], in: bytes, from: index) else { break }
            let headers = String(decoding: bytes[index..<end], as: UTF8.self).lowercased()
            guard let lengthLine = headers.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                let length = Int(lengthLine.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            else { break }
            let start = end + 4
            guard start + length + 2 <= bytes.count else { break }
            parts.append(Array(bytes[start..<start + length]))
            index = start + length + 2
        }
        return parts
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if Array(bytes[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }
}
