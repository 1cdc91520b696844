import Display
import Foundation
import KioskTestKit
import Testing

/// A display server reachable from other machines only answers who presents the token.
@Suite struct DisplayTokenTests {
    static let token = "kiosk-display-7Qe2xW9pLm4"

    @Test func aNonLoopbackServerRefusesToStartWithoutAToken() async throws {
        let hub = DisplayHub(logger: TestDisplayServer.logger)
        let server = DisplayServer(configuration: .init(host: "0.0.0.0", port: 0), hub: hub, preview: nil, logger: TestDisplayServer.logger)
        await #expect(throws: DisplayServerError.tokenRequired(host: "0.0.0.0")) { try await server.run() }
        let weak = DisplayServer(configuration: .init(host: "0.0.0.0", port: 0, token: "short"), hub: hub, preview: nil, logger: TestDisplayServer.logger)
        await #expect(throws: DisplayServerError.invalidToken) { try await weak.run() }
    }

    @Test func aConfigurationFileNamesOnlyWhatItChanges() throws {
        let json = ##"{"host": "0.0.0.0", "token": "kiosk-display-7Qe2xW9pLm4", "theme": {"primary": {"light": "#aa0000"}, "appearance": "dark"}}"##
        let configuration = try JSONDecoder().decode(DisplayServer.Configuration.self, from: Data(json.utf8))
        #expect(configuration.host == "0.0.0.0" && configuration.port == 8420 && configuration.defaultLanguage == "en")
        #expect(configuration.theme.primary == Theme.Value("#aa0000"))
        #expect(configuration.theme.background == Theme().background)
        #expect(configuration.theme.appearance == .dark)
        #expect(throws: Never.self) { try configuration.validate() }
        let none = try JSONDecoder().decode(DisplayServer.Configuration.self, from: Data("{}".utf8))
        #expect(none == DisplayServer.Configuration())
    }

    @Test func loopbackIsRecognised() {
        #expect(DisplayServer.Configuration(host: "127.0.0.1").isLoopback)
        #expect(DisplayServer.Configuration(host: "127.8.0.1").isLoopback)
        #expect(DisplayServer.Configuration(host: "localhost").isLoopback)
        #expect(DisplayServer.Configuration(host: "::1").isLoopback)
        #expect(!DisplayServer.Configuration(host: "0.0.0.0").isLoopback)
        #expect(!DisplayServer.Configuration(host: "192.168.1.20").isLoopback)
        #expect(!DisplayServer.Configuration(host: "127.0.0.1.example.org").isLoopback)
    }

    @Test func everyRouteWantsTheToken() async throws {
        let configuration = DisplayServer.Configuration(host: "0.0.0.0", port: 0, token: Self.token)
        try await TestDisplayServer.with(configuration: configuration, preview: ScriptedPreview(frames: [])) { server in
            for path in ["/", "/app.js", "/config.json", "/i18n/en.json", "/preview.mjpeg", "/events", "/nothing"] {
                #expect(try await httpGet(server.base + path).status == 401, "\(path)")
                #expect(try await httpGet(server.base + path + "?token=kiosk-display-7Qe2xW9pLm5").status == 401, "\(path)")
                #expect(try await httpGet(server.base + path, headers: [("Authorization", "Bearer \(Self.token)x")]).status == 401, "\(path)")
            }
            #expect(try await httpGet(server.base + "/config.json", headers: [("Authorization", "Bearer \(Self.token)")]).status == 200)

            // The page opened with ?token= sets a cookie, which the page's other requests carry.
            let page = try await httpGet(server.base + "/?token=\(Self.token)")
            #expect(page.status == 200)
            let cookie = try #require(page.headers.first { $0.0.lowercased() == "set-cookie" }?.1)
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let pair = String(cookie.split(separator: ";")[0])
            #expect(try await httpGet(server.base + "/app.js", headers: [("Cookie", pair)]).status == 200)
            #expect(try await httpGet(server.base + "/app.js", headers: [("Cookie", "idkiosk_display_token=wrong")]).status == 401)
        }
    }

    @Test func theWebSocketWantsTheToken() async throws {
        let configuration = DisplayServer.Configuration(host: "0.0.0.0", port: 0, token: Self.token)
        try await TestDisplayServer.with(configuration: configuration) { server in
            await server.hub.publish(.station(.starting))
            let refused = TestDisplaySocket(url: server.events)
            await #expect(throws: (any Error).self) { try await refused.connection.value }
            #expect(await server.hub.connectedDisplays == 0)

            let admitted = TestDisplaySocket(url: server.events + "?token=\(Self.token)")
            try await admitted.expectNext(.event(.station(.starting)))
            await admitted.close()
        }
    }
}
