import Foundation

extension DisplayServer {
    /// Where the display server listens, who may connect, and how the Default UI looks.
    public struct Configuration: Hashable, Sendable, Codable {
        /// The address to bind; loopback by default. Any other address needs `token`.
        public var host: String
        /// The port; 0 picks a free one (`onServerRunning` learns it).
        public var port: Int
        /// The secret a display presents: `Authorization: Bearer <token>`, `?token=<token>` on
        /// the page or the WebSocket, or the cookie the page sets. Required when `host` is not
        /// loopback; enforced whenever set. Letters, digits and `._~-` only, 16 characters at least.
        public var token: String?
        public var theme: Theme
        /// The operator's logo (SVG, PNG or JPEG), served at `/logo`; the built-in one when `nil`.
        public var logoFile: String?
        /// A directory of extra or replacement translations (`<language>.json`, e.g. `fr.json`),
        /// next to the built-in English and German.
        public var languagesDirectory: String?
        /// The language the Default UI starts in, and shows again at every new journey.
        public var defaultLanguage: String
        /// A directory that replaces the built-in Default UI (`index.html`, `app.js`, `app.css`,
        /// `i18n/`), for an operator's own page on the same server.
        public var uiDirectory: String?

        public init(
            host: String = "127.0.0.1",
            port: Int = 8420,
            token: String? = nil,
            theme: Theme = Theme(),
            logoFile: String? = nil,
            languagesDirectory: String? = nil,
            defaultLanguage: String = "en",
            uiDirectory: String? = nil
        ) {
            self.host = host
            self.port = port
            self.token = token
            self.theme = theme
            self.logoFile = logoFile
            self.languagesDirectory = languagesDirectory
            self.defaultLanguage = defaultLanguage
            self.uiDirectory = uiDirectory
        }

        private enum CodingKeys: String, CodingKey {
            case host, port, token, theme, logoFile, languagesDirectory, defaultLanguage, uiDirectory
        }

        /// Every key is optional (a station's configuration file names only what it changes).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Configuration()
            host = try container.decodeIfPresent(String.self, forKey: .host) ?? defaults.host
            port = try container.decodeIfPresent(Int.self, forKey: .port) ?? defaults.port
            token = try container.decodeIfPresent(String.self, forKey: .token)
            theme = try container.decodeIfPresent(Theme.self, forKey: .theme) ?? defaults.theme
            logoFile = try container.decodeIfPresent(String.self, forKey: .logoFile)
            languagesDirectory = try container.decodeIfPresent(String.self, forKey: .languagesDirectory)
            defaultLanguage = try container.decodeIfPresent(String.self, forKey: .defaultLanguage) ?? defaults.defaultLanguage
            uiDirectory = try container.decodeIfPresent(String.self, forKey: .uiDirectory)
        }

        /// Whether `host` only accepts connections from this machine.
        public var isLoopback: Bool {
            let name = host.lowercased()
            if name == "localhost" || name == "::1" || name == "[::1]" { return true }
            let octets = name.split(separator: ".", omittingEmptySubsequences: false)
            return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
        }

        /// Throws when the configuration would expose the display or break the page.
        public func validate() throws(DisplayServerError) {
            if let token {
                let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~-")
                guard token.count >= 16, token.unicodeScalars.allSatisfy(allowed.contains) else {
                    throw .invalidToken
                }
            } else if !isLoopback {
                throw .tokenRequired(host: host)
            }
            let invalid = theme.invalidColours
            guard invalid.isEmpty else { throw .invalidTheme(colours: invalid) }
            guard Self.isLanguageCode(defaultLanguage) else { throw .invalidLanguage(defaultLanguage) }
        }

        /// A translation file's name: a BCP 47-like tag of letters, digits and `-`.
        static func isLanguageCode(_ code: String) -> Bool {
            !code.isEmpty && code.count <= 16
                && code.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" }
        }
    }
}

/// Why the display server cannot start.
public enum DisplayServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Bound to a non-loopback address without a token.
    case tokenRequired(host: String)
    /// The token is too short or has characters a URL or cookie would mangle.
    case invalidToken
    /// Theme colours that are not CSS hex colours.
    case invalidTheme(colours: [String])
    case invalidLanguage(String)
    /// The Default UI's files were not found; `searched` lists where they were looked for.
    case userInterfaceMissing(searched: [String])
    /// A file the configuration names could not be read.
    case unreadable(path: String)

    public var description: String {
        switch self {
        case .tokenRequired(let host): "display server on \(host) (not loopback) needs a token"
        case .invalidToken: "display token must be at least 16 characters of letters, digits and ._~-"
        case .invalidTheme(let colours): "theme colours are not CSS hex colours: \(colours.joined(separator: ", "))"
        case .invalidLanguage(let code): "default language '\(code)' is not a language code"
        case .userInterfaceMissing(let searched):
            "Default UI files not found (the Debian package puts them in /usr/share/idkiosk/ui, a build beside the binary in idkiosk_Display.resources: reinstall the package); searched: \(searched.joined(separator: ", "))"
        case .unreadable(let path): "cannot read \(path)"
        }
    }
}
