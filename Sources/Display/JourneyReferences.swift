import Foundation

/// The integrator's identifiers of one journey, as a display's `startJourney` may name them
/// (the seeds' `customerInternalReference`, `userReference` and `callbackUrl`). Each one
/// missing is the station's configured or generated value. The seeds forbid personal data
/// in them; the station checks before sending (docs/backend.md).
public struct JourneyReferences: Hashable, Sendable, CustomStringConvertible {
    /// The integrator's id of this journey (at most 100 characters).
    public var customerInternalReference: String?
    /// The integrator's id of the person (at most 100 characters).
    public var userReference: String?
    /// Where the backend calls back when the journey is decided: an http(s) URL on the
    /// origin of the station's configured `journey.callback-url`.
    public var callbackURL: String?

    public init(customerInternalReference: String? = nil, userReference: String? = nil, callbackURL: String? = nil) {
        self.customerInternalReference = customerInternalReference
        self.userReference = userReference
        self.callbackURL = callbackURL
    }

    public var isEmpty: Bool { customerInternalReference == nil && userReference == nil && callbackURL == nil }

    /// The longest callback URL a display may name.
    public static let maxCallbackLength = 2048

    /// Whether `text` is an absolute http or https URL with a host, no user info and no fragment.
    public static func isCallbackURL(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= maxCallbackLength, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { return false }
        return url.user == nil && url.password == nil && url.fragment == nil
    }

    /// Which fields are set; the values are the integrator's and stay out of logs.
    public var description: String {
        let set = [("customerInternalReference", customerInternalReference), ("userReference", userReference), ("callbackUrl", callbackURL)]
            .filter { $0.1 != nil }.map(\.0)
        return "JourneyReferences(\(set.joined(separator: ", ")))"
    }
}
