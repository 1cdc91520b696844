package import MRTD

/// Encoders of LDS files, for the virtual passport and the tests.
package enum LDSEncoder {
    /// EF.COM listing `dataGroups`.
    package static func com(dataGroups: [LDSFile], ldsVersion: String = "0107", unicodeVersion: String = "040000") -> [UInt8] {
        DER.tlv(0x60, DER.tlv(0x5F01, Array(ldsVersion.utf8)) + DER.tlv(0x5F36, Array(unicodeVersion.utf8)) + DER.tlv(0x5C, dataGroups.map(\.tag)))
    }

    /// DG1 holding the MRZ text (lines concatenated, no separators).
    package static func dataGroup1(mrz: String) -> [UInt8] {
        DER.tlv(0x61, DER.tlv(0x5F1F, Array(mrz.utf8)))
    }

    /// DG2 with one face around `image`: an ISO/IEC 19794-5:2005 full-frontal record (5F2E)
    /// or an ISO/IEC 39794-5 face image data block (7F2E).
    package static func dataGroup2(
        image: [UInt8], encoding: FaceImage.Encoding = .jpeg, width: Int, height: Int, format: FaceRecordFormat = .iso19794
    ) -> [UInt8] {
        func be(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(value >> ($0 * 8) & 0xFF) } }
        // Biometric header template: ICAO header version, biometric type "face", format owner/type.
        let header = DER.tlv(0xA1, DER.tlv(0x80, [0x01, 0x01]) + DER.tlv(0x81, [0x02]) + DER.tlv(0x87, [0x01, 0x01]) + DER.tlv(0x88, [0x00, 0x08]))
        let dataBlock: [UInt8]
        switch format {
        case .iso19794:
            let imageInformation: [UInt8] = [0x01, encoding == .jpeg ? 0 : 1] + be(width, 2) + be(height, 2) + [0x01, 0x02] + be(0, 2) + be(0, 2)
            let blockLength = 20 + imageInformation.count + image.count
            let facialInformation = be(blockLength, 4) + be(0, 2) + [0x00, 0x00, 0x00] + [0, 0, 0] + be(0, 2) + [0, 0, 0] + [0, 0, 0]
            let record = [0x46, 0x41, 0x43, 0x00, 0x30, 0x31, 0x30, 0x00] + be(14 + blockLength, 4) + be(1, 2)
                + facialInformation + imageInformation + image
            dataBlock = DER.tlv(0x5F2E, record)
        case .iso39794:
            // Automatic tagging: every field context-specific, constructed for SEQUENCE and CHOICE.
            func small(_ tag: UInt32, _ value: Int) -> [UInt8] {
                let bytes = Array(be(value, 4).drop { $0 == 0 })
                return DER.tlv(tag, (bytes.first ?? 0x80) & 0x80 != 0 ? [0x00] + bytes : bytes)
            }
            let information = DER.tlv(
                0xA1,
                DER.tlv(0xA0, small(0x80, encoding == .jpeg ? 2 : 3))  // imageDataFormat: jpeg / jpeg2000 lossy
                    + DER.tlv(0xA1, small(0x80, 0))  // faceImageKind2D: mrtd
                    + DER.tlv(0xA7, small(0x80, width) + small(0x81, height))  // imageSizeBlock
                    + DER.tlv(0xA9, small(0x80, 2)))  // imageColourSpace: rgb24Bit
            let twoD = DER.tlv(0xA0, DER.tlv(0x80, image) + information)
            let representation = DER.sequence(small(0x80, 1), DER.tlv(0xA1, DER.tlv(0xA0, twoD)))
            let version = DER.tlv(0xA0, small(0x80, 1) + small(0x81, 2019))
            dataBlock = DER.tlv(0x7F2E, DER.tlv(0x65, version + DER.tlv(0xA1, representation)))
        }
        let template = DER.tlv(0x7F60, header + dataBlock)
        return DER.tlv(0x75, DER.tlv(0x7F61, DER.tlv(0x02, [0x01]) + template))
    }

    /// DG11 (additional personal details) with the fields given: place of birth and
    /// address with their parts separated by `<`, the full date of birth as `YYYYMMDD`.
    package static func dataGroup11(
        fullName: String? = nil, personalNumber: String? = nil, fullDateOfBirth: String? = nil, placeOfBirth: String? = nil, address: String? = nil,
        telephone: String? = nil, profession: String? = nil
    ) -> [UInt8] {
        let fields: [(UInt32, String?)] = [
            (0x5F0E, fullName), (0x5F10, personalNumber), (0x5F2B, fullDateOfBirth), (0x5F11, placeOfBirth), (0x5F42, address),
            (0x5F12, telephone), (0x5F13, profession),
        ]
        return DER.tlv(0x6B, tagList(fields) + fields.flatMap { tag, value in value.map { DER.tlv(tag, Array($0.utf8)) } ?? [] })
    }

    /// DG12 (additional document details) with the fields given, the date of issue as `YYYYMMDD`.
    package static func dataGroup12(issuingAuthority: String? = nil, dateOfIssue: String? = nil, endorsements: String? = nil) -> [UInt8] {
        let fields: [(UInt32, String?)] = [(0x5F19, issuingAuthority), (0x5F26, dateOfIssue), (0x5F1B, endorsements)]
        return DER.tlv(0x6C, tagList(fields) + fields.flatMap { tag, value in value.map { DER.tlv(tag, Array($0.utf8)) } ?? [] })
    }

    /// The tag list (5C) a DG11 or DG12 opens with: the tags of the fields present.
    private static func tagList(_ fields: [(UInt32, String?)]) -> [UInt8] {
        DER.tlv(0x5C, fields.filter { $0.1 != nil }.flatMap { [UInt8($0.0 >> 8), UInt8($0.0 & 0xFF)] })
    }

    /// DG14 holding SecurityInfo DERs.
    package static func dataGroup14(securityInfos: [[UInt8]]) -> [UInt8] {
        DER.tlv(0x6E, DER.tlv(0x31, securityInfos.flatMap { $0 }))
    }

    /// DG15 holding a SubjectPublicKeyInfo DER.
    package static func dataGroup15(subjectPublicKeyInfo: [UInt8]) -> [UInt8] {
        DER.tlv(0x6F, subjectPublicKeyInfo)
    }

    /// The LDSSecurityObject (version 0) over `hashes`.
    package static func securityObject(hashAlgorithm: OID, hashes: [Int: [UInt8]]) -> [UInt8] {
        let entries = hashes.keys.sorted().map { DER.sequence(DER.integer($0), DER.octetString(hashes[$0] ?? [])) }
        return DER.sequence(DER.integer(0), DER.algorithm(hashAlgorithm), DER.tlv(0x30, entries.flatMap { $0 }))
    }
}
