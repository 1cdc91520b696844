public import Foundation

/// What one token request told about the backend, for `idkiosk diag backend`: whether TLS
/// (with the configured pins and trust roots) and the client credentials were accepted,
/// how long the exchange took, and the backend's clock from its `Date` header.
public struct BackendProbe: Sendable, Hashable {
    /// The token was issued: the connection, TLS and the credentials are good.
    public var tokenIssued: Bool
    /// The failure, when no token was issued (its kind says which step failed).
    public var error: BackendError?
    /// The HTTP status of the answer, when one came.
    public var httpStatus: Int?
    /// From sending the request to the whole answer.
    public var roundTrip: Duration
    /// The backend's `Date` header, when it sent one.
    public var serverDate: Date?
    /// The station's clock when the answer came.
    public var localDate: Date

    public init(tokenIssued: Bool, error: BackendError?, httpStatus: Int?, roundTrip: Duration, serverDate: Date?, localDate: Date) {
        self.tokenIssued = tokenIssued
        self.error = error
        self.httpStatus = httpStatus
        self.roundTrip = roundTrip
        self.serverDate = serverDate
        self.localDate = localDate
    }

    /// The station's clock minus the backend's, in seconds (positive: the station is ahead);
    /// nil without a `Date` header. A `Date` has whole seconds, so a second either way is noise.
    public var clockSkewSeconds: Double? { serverDate.map { localDate.timeIntervalSince($0) } }

    /// An HTTP `Date` header (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
    public static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
