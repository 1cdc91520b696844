/// An error of the journey with the seeds' code and message (seeds: `Jumio.Error`).
///
/// The first letter is the family (A..Z); the digits carry detail. Retryable errors leave
/// the journey waiting for `retryAfterError` or `cancel`; the others end it.
public struct FlowError: Hashable, Sendable, CustomStringConvertible, Error {
    /// The seeds' error families.
    public enum Family: String, Hashable, Sendable, Codable, CaseIterable {
        /// Network communication problem (retryable).
        case A
        /// Secure connection could not be established.
        case B
        /// API credentials invalid.
        case C
        /// Wrong API credentials used (Authentication SDK).
        case D
        /// No Internet connection (retryable).
        case E
        /// Resources cannot be loaded.
        case F
        /// Cancelled by the person; no error occurred.
        case G
        /// The camera is not available.
        case H
        /// The end-to-end encryption certificate is no longer valid.
        case I
        /// The session lifetime is over.
        case J
        /// The enrollment or authentication transaction reference cannot be used.
        case L
        /// The scan could not be processed; the journey has to start again.
        case M
        /// Images required to finalise are missing.
        case N
        /// The barcode had no address: scan the front (retryable hint; `retryAfterError` starts
        /// the card again at its front).
        case Y
        /// The front was scanned where the back was asked for (retryable hint; `retryAfterError`
        /// scans the back again and keeps the front).
        case Z
    }

    public let family: Family
    /// The digits after the letter, as the seeds print them (e.g. `"000000"`, `"010401"`).
    public let detail: String

    /// Creates an error of a family; `detail` defaults to the seeds' all-zero detail.
    public init(_ family: Family, detail: String = "000000") {
        self.family = family
        self.detail = detail
    }

    /// The whole code, e.g. `A010404`.
    public var code: String { family.rawValue + detail }

    /// Whether the journey can go on after `retryAfterError`.
    public var isRetryable: Bool {
        switch family {
        case .A, .E, .Y, .Z: true
        case .B, .C, .D, .F, .G, .H, .I, .J, .L, .M, .N: false
        }
    }

    /// The seeds' message for the family.
    public var message: String {
        switch family {
        case .A: "We have encountered a network communication problem"
        case .B, .C, .D: "Authentication failed"
        case .E: "No Internet connection available"
        case .F, .N: "Scanning not available at this time, please contact the app vendor"
        case .G: "Cancelled by end-user"
        case .H: "The camera is currently not available"
        case .I: "Certificate not valid anymore. Please update your application"
        case .J: "Transaction already finished"
        case .L: "Enrollment transaction reference invalid"
        case .M: "The scan could not be processed"
        case .Y: "The barcode of your document didn't contain your address, turn your document and scan the front."
        case .Z: "You recently scanned the front of your document. Please flip your document and scan the back."
        }
    }

    public var description: String { "\(code) \(message)" }
}

extension FlowError {
    /// The error as the Authentication SDK (seed 004) writes its codes: the family, one digit
    /// for the call and four for the status, six characters in all (`A[x][yyyy]`, `L00000`,
    /// `M00000`), where the other products write seven (`A[xx][yyyy]`, `L000000`). The call's
    /// digit is the first of its two (token 1, accounts 2, upload 3, finalize 4, status and
    /// retrieval 5, encryption key 6); the all-zero and kiosk details lose one zero
    /// (`G000001` is `G00001`). A detail of another length is kept.
    public var inAuthenticationFormat: FlowError {
        guard detail.count == 6 else { return self }
        var shortened = detail
        shortened.remove(at: shortened.index(after: shortened.startIndex))
        return FlowError(family, detail: shortened)
    }

    /// The person cancelled (seeds: G000000).
    public static let cancelledByUser = FlowError(.G)
    /// Kiosk extension of G: nobody answered within the inactivity timeout and its warning.
    public static let abandoned = FlowError(.G, detail: "000001")
    /// Kiosk extension of G: the person refused an active consent item.
    public static let consentRefused = FlowError(.G, detail: "000002")
    /// The camera could not be started or was lost (seeds: H000000).
    public static let cameraUnavailable = FlowError(.H)
    /// The session lifetime is over (seeds: J000000).
    public static let sessionExpired = FlowError(.J)
}
