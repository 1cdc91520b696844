public import Backend
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `idkiosk diag backend`: the way from the station to its verification backend, step by
/// step, so that the first failing step names the fault. DNS, then TCP, then one token
/// request (TLS with the configured pins and trust roots, the client credentials) and the
/// backend's clock against the station's.
public struct BackendDiagnostics: Sendable {
    /// How far the clocks may be apart before it matters: session tokens and TLS
    /// certificates are judged by time. Beyond `warnSkew` a warning, beyond `failSkew` a failure.
    public static let warnSkew = 30.0
    public static let failSkew = 300.0

    public let url: String
    public let connectTimeout: Duration

    public init(url: String, connectTimeout: Duration = .seconds(5)) {
        self.url = url
        self.connectTimeout = connectTimeout
    }

    /// The checks before the first failure (every later step depends on it), then stops.
    /// - Parameter probe: one token request to the backend (``HTTPVerificationBackend/diagnose()``).
    public func run(probe: () async -> BackendProbe) async -> [DiagnosticCheck] {
        guard let components = URLComponents(string: url), let scheme = components.scheme, ["http", "https"].contains(scheme),
            let host = components.host, !host.isEmpty
        else {
            return [DiagnosticCheck(
                "url", .fail, "backend.url \(ConfigurationRedaction.removingURLCredentials(url)) is not an http(s) URL", hint: "fix backend.url in the configuration")]
        }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        // A table a technician may paste to support: never a password written into the URL.
        let url = ConfigurationRedaction.removingURLCredentials(url)
        var checks: [DiagnosticCheck] = []
        if scheme == "http" {
            let local = ["127.0.0.1", "::1", "localhost"].contains(host)
            checks.append(DiagnosticCheck(
                "url", local ? .pass : .warn, "\(url)" + (local ? " (this machine)" : ": plain HTTP"),
                hint: local ? nil : "use https:// for a backend on another machine"))
        } else {
            checks.append(DiagnosticCheck("url", .pass, url))
        }

        let addresses = Self.resolve(host: host, port: port)
        guard !addresses.isEmpty else {
            checks.append(DiagnosticCheck(
                "dns", .fail, "\(host) does not resolve", hint: "check the name, /etc/resolv.conf and the network (`resolvectl query \(host)`)"))
            return checks
        }
        checks.append(DiagnosticCheck("dns", .pass, "\(host): \(addresses.map(\.text).joined(separator: ", "))"))

        let tcp = Self.connect(addresses, timeout: connectTimeout)
        switch tcp {
        case .failure(let reason):
            checks.append(DiagnosticCheck(
                "tcp", .fail, "port \(port) of \(host): \(reason)",
                hint: "is the backend running and listening there? a firewall between? (`nc -vz \(host) \(port)`)"))
            return checks
        case .success(let milliseconds):
            checks.append(DiagnosticCheck("tcp", .pass, "port \(port) answers (\(Self.format(milliseconds)) ms)"))
        }

        let answer = await probe()
        checks.append(Self.judgeToken(answer, https: scheme == "https"))
        if let clock = Self.judgeClock(answer) { checks.append(clock) }
        return checks
    }

    /// The token request: what its failure says, or that it passed.
    public static func judgeToken(_ probe: BackendProbe, https: Bool) -> DiagnosticCheck {
        let name = https ? "tls+token" : "token"
        let time = Self.format(Double(probe.roundTrip.components.seconds) * 1000 + Double(probe.roundTrip.components.attoseconds) / 1e15)
        guard let error = probe.error else {
            return DiagnosticCheck(name, .pass, (https ? "TLS accepted, " : "") + "a token was issued (\(time) ms)")
        }
        switch error.kind {
        case .secureConnection:
            return DiagnosticCheck(
                name, .fail, "TLS refused: \(error.message)",
                hint: "the backend's certificate chain is not trusted or its key is not among backend.spki-pins; check backend.trust-roots and the pins")
        case .credentials:
            return DiagnosticCheck(
                name, .fail, "the client credentials were refused (HTTP \(error.httpStatus ?? 401))",
                hint: "check backend.client-id and the secret in backend.client-secret-file")
        case .noConnection:
            return DiagnosticCheck(name, .fail, "could not connect: \(error.message)", hint: "the port answered a moment ago; is the backend restarting?")
        default:
            return DiagnosticCheck(
                name, .fail, "the token request failed: \(error.code) \(error.message)" + (error.cause.map { " (\($0))" } ?? ""),
                hint: "look at the backend's log for this time; `idkiosk diag backend` again")
        }
    }

    /// The station's clock against the backend's `Date`; nil when the backend sent none.
    public static func judgeClock(_ probe: BackendProbe) -> DiagnosticCheck? {
        guard let skew = probe.clockSkewSeconds else {
            return probe.httpStatus == nil ? nil : DiagnosticCheck("clock", .warn, "the backend sent no Date header", hint: "check the station's clock with `timedatectl`")
        }
        let text = skew >= 0 ? "the station is \(Int(skew.rounded())) s ahead of the backend" : "the station is \(Int((-skew).rounded())) s behind the backend"
        let hint = "synchronise the station's clock (`timedatectl set-ntp true`; `timedatectl timesync-status`)"
        if abs(skew) > failSkew { return DiagnosticCheck("clock", .fail, text, hint: hint) }
        if abs(skew) > warnSkew { return DiagnosticCheck("clock", .warn, text, hint: hint) }
        return DiagnosticCheck("clock", .pass, text)
    }

    /// Why nothing accepts a TCP connection at `host`:`port` within `timeout`; nil when something does.
    public static func tcpProbe(host: String, port: Int, timeout: Duration = .seconds(2)) -> String? {
        let addresses = resolve(host: host, port: port)
        guard !addresses.isEmpty else { return "\(host) does not resolve" }
        if case .failure(let failure) = connect(addresses, timeout: timeout) { return failure.reason }
        return nil
    }

    static func format(_ milliseconds: Double) -> String { String(format: "%.1f", milliseconds) }

    // MARK: DNS and TCP

    struct Address: Sendable {
        var storage: sockaddr_storage
        var length: socklen_t
        var family: Int32
        var text: String
    }

    /// The host's addresses as the system resolver gives them (numeric hosts included).
    static func resolve(host: String, port: Int) -> [Address] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            let info = current.pointee
            if let address = info.ai_addr {
                var storage = sockaddr_storage()
                memcpy(&storage, address, Int(info.ai_addrlen))
                var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                getnameinfo(address, info.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST)
                let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !addresses.contains(where: { $0.text == text }) {
                    addresses.append(Address(storage: storage, length: info.ai_addrlen, family: info.ai_family, text: text))
                }
            }
            entry = info.ai_next
        }
        return addresses
    }

    /// Connects to the first address that accepts within `timeout`; the time it took, or why not.
    static func connect(_ addresses: [Address], timeout: Duration) -> Result<Double, TCPFailure> {
        var last = "no address"
        for address in addresses {
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let clock = ContinuousClock()
            let start = clock.now
            var storage = address.storage
            let started = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
            }
            if started != 0, errno != EINPROGRESS {
                last = String(cString: strerror(errno))
                continue
            }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&poller, 1, milliseconds) == 1 else {
                last = "no answer within \(timeout)"
                continue
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                last = String(cString: strerror(error))
                continue
            }
            let elapsed = start.duration(to: clock.now)
            return .success(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return .failure(TCPFailure(reason: last))
    }

    struct TCPFailure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }
}
