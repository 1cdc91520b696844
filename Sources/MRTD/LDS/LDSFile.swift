/// An elementary file of the eMRTD application or of the master file (ICAO Doc 9303
/// Part 10 §3.6 and Table 38): its file identifier, short file identifier and tag.
public struct LDSFile: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The two-byte file identifier used in SELECT.
    public let fid: UInt16
    /// The short file identifier usable in READ BINARY with P1 bit 8 set.
    public let sfi: UInt8
    /// The tag that opens the file's contents (for EF.CardAccess/EF.CardSecurity, the SET tag).
    public let tag: UInt8
    /// Whether the file lives in the master file rather than the eMRTD application.
    public let inMasterFile: Bool
    /// The short name, for logs: `EF.COM`, `DG2`, `EF.SOD`…
    public let name: String

    private init(fid: UInt16, sfi: UInt8, tag: UInt8, inMasterFile: Bool = false, name: String) {
        self.fid = fid
        self.sfi = sfi
        self.tag = tag
        self.inMasterFile = inMasterFile
        self.name = name
    }

    /// EF.COM: LDS version and the list of present data groups.
    public static let com = LDSFile(fid: 0x011E, sfi: 0x1E, tag: 0x60, name: "EF.COM")
    /// EF.SOD: the document security object (CMS SignedData).
    public static let sod = LDSFile(fid: 0x011D, sfi: 0x1D, tag: 0x77, name: "EF.SOD")
    /// EF.CardAccess in the master file: the SecurityInfos for PACE.
    public static let cardAccess = LDSFile(fid: 0x011C, sfi: 0x1C, tag: 0x31, inMasterFile: true, name: "EF.CardAccess")
    /// EF.CardSecurity in the master file (signed SecurityInfos of PACE-CAM and TA).
    public static let cardSecurity = LDSFile(fid: 0x011D, sfi: 0x1D, tag: 0x30, inMasterFile: true, name: "EF.CardSecurity")

    /// Not a chip file: an ICAO CSCA master list (Doc 9303 Part 12 §9), named here so its
    /// parse errors read like the LDS files'.
    public static let masterList = LDSFile(fid: 0, sfi: 0, tag: 0x30, inMasterFile: true, name: "CSCA master list")

    /// The tags of DG1…DG16 (Doc 9303 Part 10 Table 38), indexed by number − 1.
    private static let dataGroupTags: [UInt8] = [
        0x61, 0x75, 0x63, 0x76, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70,
    ]

    /// Data group `number` (1…16); `nil` outside that range.
    public static func dataGroup(_ number: Int) -> LDSFile? {
        guard (1...16).contains(number) else { return nil }
        return LDSFile(fid: 0x0100 + UInt16(number), sfi: UInt8(number), tag: dataGroupTags[number - 1], name: "DG\(number)")
    }

    /// The data group whose contents open with `tag`, as EF.COM lists them.
    public static func dataGroup(tag: UInt8) -> LDSFile? {
        dataGroupTags.firstIndex(of: tag).flatMap { dataGroup($0 + 1) }
    }

    /// The data group number, `nil` for EF.COM, EF.SOD and the master file's files.
    public var dataGroupNumber: Int? {
        guard !inMasterFile, (0x0101...0x0110).contains(fid) else { return nil }
        return Int(fid - 0x0100)
    }

    public static let dg1 = dataGroup(1)!
    public static let dg2 = dataGroup(2)!
    public static let dg7 = dataGroup(7)!
    public static let dg11 = dataGroup(11)!
    public static let dg12 = dataGroup(12)!
    public static let dg14 = dataGroup(14)!
    public static let dg15 = dataGroup(15)!

    public var description: String { name }

    /// EF.COM first, data groups by number, EF.SOD last: the order a reader wants them in.
    public static func < (lhs: LDSFile, rhs: LDSFile) -> Bool {
        lhs.sortKey < rhs.sortKey
    }

    private var sortKey: Int {
        if inMasterFile { return Int(sfi) - 0x100 }
        if self == .com { return 0 }
        return dataGroupNumber ?? 0x100
    }
}
