import Foundation
public import PostgresNIO
import NIOSSL

/// A PostgreSQL connection URL as libpq writes them:
/// `postgres://user:password@host:port/database?sslmode=require`, or a unix socket
/// directory as the host: `postgres://user@/database?host=/run/postgresql&port=5432`.
///
/// `sslmode` means what it means to libpq: `disable`; `allow` and `prefer` (the default)
/// use TLS when the server offers it, `require` insists on it, all three without checking
/// the certificate; `verify-ca` checks the chain, `verify-full` the chain and the host
/// name. `sslrootcert` names the CA file for the two `verify-` modes (default: the
/// system's trust roots).
public struct PostgresURL: Sendable {
    /// Why a URL was refused; the message never repeats the password.
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    public let configuration: PostgresClient.Configuration
    /// The URL without its password, for logs.
    public let redacted: String

    public init(_ string: String) throws(Invalid) {
        guard let components = URLComponents(string: string), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw Invalid(description: "not a postgres:// URL")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        guard let username = components.percentEncodedUser?.removingPercentEncoding ?? query["user"], !username.isEmpty else {
            throw Invalid(description: "the URL names no user")
        }
        let password = components.percentEncodedPassword?.removingPercentEncoding ?? query["password"]
        let path = components.percentEncodedPath.dropFirst()
        let database = path.isEmpty ? nil : String(path).removingPercentEncoding
        let port = components.port ?? query["port"].flatMap(Int.init) ?? 5432
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? query["host"] ?? "localhost"

        var configuration: PostgresClient.Configuration
        if host.hasPrefix("/") {
            configuration = .init(unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else {
            var unverified = TLSConfiguration.makeClientConfiguration()
            unverified.certificateVerification = .none
            var verified = TLSConfiguration.makeClientConfiguration()
            if let rootCertificate = query["sslrootcert"] { verified.trustRoots = .file(rootCertificate) }
            let tls: PostgresClient.Configuration.TLS
            switch query["sslmode"] ?? "prefer" {
            case "disable": tls = .disable
            case "allow", "prefer": tls = .prefer(unverified)
            case "require": tls = .require(unverified)
            case "verify-ca":
                verified.certificateVerification = .noHostnameVerification
                tls = .require(verified)
            case "verify-full":
                verified.certificateVerification = .fullVerification
                tls = .require(verified)
            default: throw Invalid(description: "sslmode must be disable, allow, prefer, require, verify-ca or verify-full")
            }
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration

        var shown = components
        if shown.password != nil { shown.password = "***" }
        shown.queryItems = components.queryItems?.map { $0.name == "password" ? URLQueryItem(name: "password", value: "***") : $0 }
        redacted = shown.string ?? "postgres://***"
    }
}
