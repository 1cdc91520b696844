public import Backend
public import Display
import Foundation
public import ScanFlow

/// Where a journey's transaction identifiers come from (the seeds' `customerInternalReference`,
/// `userReference`, `reportingCriteria`, `callbackUrl`): the display's `startJourney` names
/// them per journey, else the configuration (`journey.reference-prefix`,
/// `journey.callback-url`, `journey.reporting-criteria`), else the station makes the
/// customer reference up (`<prefix>-<8 hex digits>`).
public struct TransactionDefaults: Hashable, Sendable {
    /// The customer reference of a journey whose display names none: this, a dash, 8 random hex digits.
    public var referencePrefix: String
    /// Where the backend calls back; a display's callback URL must be on its origin.
    public var callbackURL: String?
    /// How the integrator's reports group this station's journeys.
    public var reportingCriteria: String?

    public init(referencePrefix: String = "kiosk", callbackURL: String? = nil, reportingCriteria: String? = nil) {
        self.referencePrefix = referencePrefix
        self.callbackURL = callbackURL
        self.reportingCriteria = reportingCriteria
    }

    /// The account request of one journey.
    /// - Parameters:
    ///   - profile: the journey the station offers.
    ///   - display: what the display's `startJourney` named, if anything.
    ///   - authentication: an Authentication's enrollment, as the display named it.
    ///   - suffix: what follows the prefix when the display names no customer reference.
    /// - Throws: ``BackendError`` (`rejected`, the station's M) when the display names a
    ///   callback URL and the configuration none, or one on another origin (scheme, host,
    ///   port): a display does not choose where the backend sends its callbacks.
    public func accountRequest(
        _ profile: WorkflowProfile, display: JourneyReferences?, authentication: AuthenticationReference? = nil, suffix: String
    ) throws(BackendError) -> AccountRequest {
        var callback = callbackURL
        if let asked = display?.callbackURL {
            guard let configured = callbackURL, Self.origin(of: asked) != nil, Self.origin(of: asked) == Self.origin(of: configured) else {
                throw BackendError(.rejected, call: .createAccount, message: "the display's callbackUrl is not on the origin of journey.callback-url")
            }
            callback = asked
        }
        var request = profile.accountRequest(
            reference: display?.customerInternalReference ?? "\(referencePrefix)-\(suffix)", callbackURL: callback, authentication: authentication)
        request.userReference = display?.userReference
        request.reportingCriteria = reportingCriteria
        return request
    }

    /// Scheme, host and port (the scheme's default when none is written), lowercased.
    static func origin(of text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}

extension TransactionDefaults {
    /// From the configuration's `journey` section (empty values: none).
    public init(_ journey: Configuration.JourneySection) {
        self.init(
            referencePrefix: journey.referencePrefix, callbackURL: journey.callbackURL.isEmpty ? nil : journey.callbackURL,
            reportingCriteria: journey.reportingCriteria.isEmpty ? nil : journey.reportingCriteria)
    }
}
