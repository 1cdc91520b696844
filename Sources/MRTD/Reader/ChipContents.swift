public import APDU

/// What ``ChipReader`` read from a chip: the raw LDS files, and typed views of them.
///
/// Raw bytes are kept because Passive Authentication hashes exactly what the chip holds.
/// Everything here may be personal data, so descriptions list file names and sizes only.
public struct ChipContents: Sendable {
    /// The access control that opened the chip.
    public enum AccessControl: String, Hashable, Sendable {
        case bac = "BAC"
        case pace = "PACE"
    }

    /// Every file read, by file.
    public var files: [LDSFile: [UInt8]]
    /// EF.CardAccess when the chip has one (read before access control).
    public var cardAccess: [UInt8]?
    /// EF.CardSecurity when PACE-CAM ran (read after PACE, for its chip authentication key).
    public var cardSecurity: [UInt8]?
    /// Files EF.COM lists that the chip refused to give (for example DG3 behind EAC), with the answer.
    public var refused: [LDSFile: StatusWord]
    public var accessControl: AccessControl
    /// Whether EF.CardAccess offered PACE (``accessControl`` says whether it was used).
    public var paceOffered: Bool
    /// Why PACE, offered and tried, failed, so that the chip was read with BAC: the
    /// protocol, what went wrong and the chip's status word. Never silent: a PACE-only
    /// document cannot be read so, and a chip that should run PACE is worth a look.
    public var paceFailure: String?
    /// Chip Authentication's result: PACE-CAM's when it ran, else Chip Authentication's when
    /// DG14 offered it and it was asked for.
    public var chipAuthentication: VerificationCheck?
    /// Active Authentication's result when the chip has DG15 and it was asked for. Trust a
    /// pass only when Passive Authentication passed DG15.
    public var activeAuthentication: VerificationCheck?
    public var statistics: ChipReadStatistics

    public init(
        files: [LDSFile: [UInt8]], cardAccess: [UInt8]? = nil, cardSecurity: [UInt8]? = nil, refused: [LDSFile: StatusWord] = [:],
        accessControl: AccessControl = .bac, paceOffered: Bool = false, paceFailure: String? = nil, chipAuthentication: VerificationCheck? = nil,
        activeAuthentication: VerificationCheck? = nil,
        statistics: ChipReadStatistics = ChipReadStatistics()
    ) {
        self.files = files
        self.cardAccess = cardAccess
        self.cardSecurity = cardSecurity
        self.refused = refused
        self.accessControl = accessControl
        self.paceOffered = paceOffered
        self.paceFailure = paceFailure
        self.chipAuthentication = chipAuthentication
        self.activeAuthentication = activeAuthentication
        self.statistics = statistics
    }

    /// The parsed file, `nil` when it was not read.
    /// - Throws: ``LDSError`` when it is malformed.
    public func com() throws(LDSError) -> EFCOM? { try files[.com].map { bytes throws(LDSError) in try EFCOM(bytes) } }
    public func dataGroup1() throws(LDSError) -> DataGroup1? { try files[.dg1].map { bytes throws(LDSError) in try DataGroup1(bytes) } }
    public func dataGroup2() throws(LDSError) -> DataGroup2? { try files[.dg2].map { bytes throws(LDSError) in try DataGroup2(bytes) } }
    public func dataGroup7() throws(LDSError) -> DataGroup7? { try files[.dg7].map { bytes throws(LDSError) in try DataGroup7(bytes) } }
    public func dataGroup11() throws(LDSError) -> DataGroup11? { try files[.dg11].map { bytes throws(LDSError) in try DataGroup11(bytes) } }
    public func dataGroup12() throws(LDSError) -> DataGroup12? { try files[.dg12].map { bytes throws(LDSError) in try DataGroup12(bytes) } }
    public func dataGroup14() throws(LDSError) -> SecurityInfos? {
        try files[.dg14].map { bytes throws(LDSError) in try SecurityInfos(dataGroup14: bytes) }
    }
    public func dataGroup15() throws(LDSError) -> DataGroup15? { try files[.dg15].map { bytes throws(LDSError) in try DataGroup15(bytes) } }
    public func securityObject() throws(LDSError) -> SecurityObject? { try files[.sod].map { bytes throws(LDSError) in try SecurityObject(bytes) } }

    /// Overwrites every byte, for the end of a session; Swift arrays offer no stronger guarantee
    /// than dropping the only reference to the zeroed storage.
    public mutating func wipe() {
        for key in files.keys { files[key] = files[key].map { [UInt8](repeating: 0, count: $0.count) } }
        files.removeAll()
        cardAccess = nil
        cardSecurity = nil
    }
}

extension ChipContents: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let list = files.keys.sorted().map { "\($0.name) \(files[$0]?.count ?? 0) bytes" }.joined(separator: ", ")
        return "ChipContents(\(accessControl.rawValue): \(list))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
