public import MRTD
public import ScanFlow
public import SmartCard

/// What the station loop asks of the contactless reader.
///
/// The real one is ``ChipCapture`` (pcscd); tests use fakes.
public protocol ChipDevice: Sendable {
    /// Waits for a document on the reader, reads its chip with `key` and verifies it.
    /// A document lifted mid-read is waited for and the read resumes.
    func read(key: ChipAccessKey, report: @escaping @Sendable (ChipReport) -> Void) async throws(ChipDeviceError) -> ChipReading

    /// Documents placed on and lifted off the reader, and the reader's own presence.
    func presence() -> AsyncStream<ReaderPresence>

    func probe() async -> DeviceProbe
}

public enum ReaderPresence: Hashable, Sendable {
    case readerAvailable(Bool)
    case cardPresent(Bool)
}

public enum ChipReport: Hashable, Sendable {
    case waitingForCard
    case started
    /// How far the read has come, overall, and the file being read; reported when the percentage changes.
    case progress(percent: Int, file: LDSFile)
    /// The document left the reader mid-read: ask the person to put it back.
    case cardLost
    case resumed
}

/// What a chip read produced, before anyone decides what to upload: the files, the
/// station's own checks, and how the read went.
public struct ChipReading: Sendable, CustomStringConvertible {
    /// The reader the document was on.
    public var reader: String
    /// The files read, the access control used, Chip and Active Authentication as the chip
    /// answered, and the read's statistics.
    public var contents: ChipContents
    /// Passive Authentication against the trust store; nil without a trust store.
    public var passiveAuthentication: PassiveAuthentication.Result?
    /// How long the read took (connected to done), on the capture's clock.
    public var duration: Duration

    public init(reader: String, contents: ChipContents, passiveAuthentication: PassiveAuthentication.Result?, duration: Duration) {
        self.reader = reader
        self.contents = contents
        self.passiveAuthentication = passiveAuthentication
        self.duration = duration
    }

    public var chipAuthentication: VerificationCheck? { contents.chipAuthentication }
    public var activeAuthentication: VerificationCheck? { contents.activeAuthentication }
    public var statistics: ChipReadStatistics { contents.statistics }

    /// Names no personal data: access control, checks, counts.
    public var description: String {
        "ChipReading(\(contents.accessControl.rawValue), PA \(passiveAuthentication.map { $0.outcome.rawValue } ?? "not checked"), "
            + "\(contents.files.count) files, \(contents.statistics.total.commands) APDUs)"
    }
}

/// Why a chip read ended without data; `message` names no personal data.
public struct ChipDeviceError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// No reader, or pcscd is not running.
        case readerMissing
        /// The key does not open the chip (wrong MRZ or CAN).
        case accessDenied
        /// The chip could not be read (lost for good, refused, malformed), or no document came.
        case unreadable
    }

    /// The failure underneath, for a command that reports it in its own words.
    public enum Cause: Sendable {
        case smartCard(SmartCardError)
        case chip(MRTDError)
    }

    public var kind: Kind
    public var message: String
    public var cause: Cause?

    public init(_ kind: Kind, _ message: String, cause: Cause? = nil) {
        self.kind = kind
        self.message = message
        self.cause = cause
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
