/// EF.COM (Doc 9303 Part 10 §4.6.1): the LDS and Unicode versions and the tags of the
/// data groups present.
public struct EFCOM: Hashable, Sendable, CustomStringConvertible {
    /// The LDS version as the file gives it, `aabb` for version aa.bb (for example `0107`).
    public let ldsVersion: String
    /// The Unicode version, `aabbcc`.
    public let unicodeVersion: String
    /// The data groups the file lists, in its order.
    public let dataGroups: [LDSFile]

    /// Parses the file's bytes.
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .com)
        let root = try reader.expect(reader.parse(bytes), tag: 0x60, "the EF.COM template")
        ldsVersion = String(decoding: try reader.expect(root.child(0x5F01), tag: 0x5F01, "the LDS version", in: root).value, as: UTF8.self)
        unicodeVersion = String(decoding: try reader.expect(root.child(0x5F36), tag: 0x5F36, "the Unicode version", in: root).value, as: UTF8.self)
        let list = try reader.expect(root.child(0x5C), tag: 0x5C, "the tag list", in: root)
        var groups: [LDSFile] = []
        for tag in list.value {
            guard let group = LDSFile.dataGroup(tag: tag) else {
                throw reader.error("tag list names \(String(tag, radix: 16, uppercase: true)), which is no data group", at: list)
            }
            groups.append(group)
        }
        dataGroups = groups
    }

    public var description: String {
        "EF.COM(LDS \(ldsVersion), data groups: \(dataGroups.map(\.name).joined(separator: " ")))"
    }
}
