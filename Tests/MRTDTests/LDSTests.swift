import APDU
@testable import MRTD
import Testing
import VirtualPassport

/// LDS parsing: the EF.COM of Doc 9303 Part 11 Appendix D.4, and files built with the
/// encoders (whose shapes follow Doc 9303 Part 10) parsed back, plus malformed inputs.
@Suite struct LDSTests {
    static let td3Line = MRZTests.td3.replacing("\n", with: "")

    @Test func parsesTheAppendixEFCOM() throws {
        // Doc 9303 Part 11 App. D.4: the EF.COM read through secure messaging.
        let com = try EFCOM(hex("60145F0104303130365F36063034303030305C026175"))
        #expect(com.ldsVersion == "0106")
        #expect(com.unicodeVersion == "040000")
        #expect(com.dataGroups == [.dg1, .dg2])
    }

    @Test func efCOMWithAnUnknownTagNamesItsOffset() {
        #expect(throws: LDSError(file: .com, offset: 18, reason: "tag list names 99, which is no data group")) {
            try EFCOM(hex("60145F0104303130365F36063034303030305C026199"))
        }
    }

    @Test func fileIdentifiersFollowPart10() {
        #expect(LDSFile.dg2.fid == 0x0102 && LDSFile.dg2.sfi == 2 && LDSFile.dg2.tag == 0x75)
        #expect(LDSFile.dg14.tag == 0x6E && LDSFile.dg15.tag == 0x6F && LDSFile.dg11.tag == 0x6B)
        #expect(LDSFile.sod.fid == 0x011D && LDSFile.com.fid == 0x011E && LDSFile.cardAccess.fid == 0x011C)
        #expect(LDSFile.dataGroup(tag: 0x75) == .dg2)
        #expect([LDSFile.sod, .dg2, .com, .dg1].sorted() == [.com, .dg1, .dg2, .sod])
    }

    @Test func dataGroup1CarriesTheMRZ() throws {
        let group = try DataGroup1(LDSEncoder.dataGroup1(mrz: Self.td3Line))
        #expect(group.mrz.documentNumber == "L898902C3")
        #expect(group.mrz.format == .td3)
        #expect(group.description == "DG1(TD3, redacted)")
    }

    @Test func dataGroup1WithABadCheckDigitIsATypedError() throws {
        let broken = Self.td3Line.replacing("7408122", with: "7408125")
        let error = try #require(#expect(throws: LDSError.self) { try DataGroup1(LDSEncoder.dataGroup1(mrz: broken)) })
        #expect(error.file == .dg1)
        #expect(error.offset == 2)
        #expect(!error.description.contains("740812"))
    }

    @Test func dataGroup2ExtractsTheImageAndItsMetadata() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<3000).map { UInt8($0 % 251) } + [0xFF, 0xD9]
        let bytes = LDSEncoder.dataGroup2(image: jpeg, width: 480, height: 640)
        let group = try DataGroup2(bytes)
        let face = try #require(group.faces.first)
        #expect(group.faces.count == 1)
        #expect(face.imageData == jpeg)
        #expect(face.encoding == .jpeg && face.hasExpectedSignature)
        #expect(face.width == 480 && face.height == 640)
        #expect(face.faceImageType == 1 && face.colorSpace == 1 && face.sourceType == 2)
    }

    @Test func dataGroup2WithAShortBlockLengthIsRefused() throws {
        var bytes = LDSEncoder.dataGroup2(image: [0xFF, 0xD8, 0xFF, 0xD9], width: 1, height: 1)
        // The facial record follows its 14-byte header; corrupt its block length.
        let record = try #require(TLV.parse(bytes).child(0x7F61)?.child(0x7F60)?.child(0x5F2E))
        bytes[record.valueRange.lowerBound + 14 + 3] = 0x05
        let error = try #require(#expect(throws: LDSError.self) { try DataGroup2(bytes) })
        #expect(error.offset == record.valueRange.lowerBound + 14)
    }

    @Test(arguments: [FaceImage.Encoding.jpeg, .jpeg2000]) func dataGroup2InISO39794(encoding: FaceImage.Encoding) throws {
        let image: [UInt8] = (encoding == .jpeg ? [0xFF, 0xD8, 0xFF, 0xE0] : [0xFF, 0x4F, 0xFF, 0x51]) + (0..<5000).map { UInt8($0 % 253) }
        let bytes = LDSEncoder.dataGroup2(image: image, encoding: encoding, width: 480, height: 640, format: .iso39794)
        // The data block is DER under 7F2E: [APPLICATION 5] { version [0], representations [1] }.
        let block = try #require(TLV.parse(bytes).child(0x7F61)?.child(0x7F60)?.child(0x7F2E))
        #expect(block.children.first?.tag == 0x65)
        let face = try #require(try DataGroup2(bytes).faces.first)
        #expect(face.recordFormat == .iso39794)
        #expect(face.imageData == image)
        #expect(face.encoding == encoding && face.hasExpectedSignature)
        #expect(face.width == 480 && face.height == 640)
        #expect(face.colorSpace == 2)  // rgb24Bit
        #expect(String(describing: face).contains("39794"))
    }

    @Test func dataGroup2InISO39794WithoutImageOrWithAnotherFormatIsRefused() throws {
        func dg2(_ dataBlock: [UInt8]) -> [UInt8] {
            DER.tlv(0x75, DER.tlv(0x7F61, DER.tlv(0x02, [1]) + DER.tlv(0x7F60, DER.tlv(0x7F2E, dataBlock))))
        }
        let version = DER.tlv(0xA0, DER.tlv(0x80, [1]) + DER.tlv(0x81, [0x07, 0xE3]))
        func representation(format: UInt8, data: Bool) -> [UInt8] {
            let information = DER.tlv(0xA1, DER.tlv(0xA0, DER.tlv(0x80, [format])))
            let twoD = DER.tlv(0xA0, (data ? DER.tlv(0x80, [0xFF, 0xD8, 0xFF]) : []) + information)
            return DER.tlv(0x65, version + DER.tlv(0xA1, DER.sequence(DER.tlv(0x80, [1]), DER.tlv(0xA1, DER.tlv(0xA0, twoD)))))
        }
        #expect(try DataGroup2(dg2(representation(format: 2, data: true))).faces.count == 1)
        let missing = try #require(#expect(throws: LDSError.self) { try DataGroup2(dg2(representation(format: 2, data: false))) })
        #expect(missing.reason.contains("representation data"))
        let png = try #require(#expect(throws: LDSError.self) { try DataGroup2(dg2(representation(format: 5, data: true))) })
        #expect(png.reason.contains("image data format 5"))
        let empty = try #require(#expect(throws: LDSError.self) { try DataGroup2(dg2(DER.tlv(0x65, version + DER.tlv(0xA1, [])))) })
        #expect(empty.reason.contains("without representations"))
        #expect(throws: LDSError.self) { try DataGroup2(dg2([0xA1, 0x00])) }
    }

    @Test func dataGroup7And11And12() throws {
        let dg7 = try DataGroup7(DER.tlv(0x67, DER.tlv(0x02, [1]) + DER.tlv(0x5F43, [0xFF, 0xD8, 0xFF, 0xD9])))
        #expect(dg7.images == [[0xFF, 0xD8, 0xFF, 0xD9]])
        #expect(throws: LDSError.self) { try DataGroup7(DER.tlv(0x67, DER.tlv(0x02, [2]) + DER.tlv(0x5F43, [0xFF]))) }

        let dg11 = try DataGroup11(DER.tlv(0x6B,
            DER.tlv(0x5C, [0x5F, 0x0E, 0x5F, 0x2B, 0x5F, 0x11])
                + DER.tlv(0x5F0E, Array("ERIKSSON<<ANNA<MARIA".utf8))
                + DER.tlv(0x5F2B, [0x19, 0x74, 0x08, 0x12])
                + DER.tlv(0x5F11, Array("ZENITH".utf8))
                + DER.tlv(0xA0, DER.tlv(0x02, [1]) + DER.tlv(0x5F0F, Array("SMITH<<ANNA".utf8)))))
        #expect(dg11.fullName == "ERIKSSON<<ANNA<MARIA")
        #expect(dg11.fullDateOfBirth == "19740812")
        #expect(dg11.placeOfBirth == "ZENITH")
        #expect(dg11.otherNames == ["SMITH<<ANNA"])
        #expect(dg11.description == "DG11(redacted)")
        #expect(throws: LDSError.self) { try DataGroup11(DER.tlv(0x6B, DER.tlv(0x5F2B, Array("1974-08".utf8)))) }

        let dg12 = try DataGroup12(DER.tlv(0x6C,
            DER.tlv(0x5F19, Array("UTOPIA".utf8)) + DER.tlv(0x5F26, Array("20120415".utf8)) + DER.tlv(0x5F1D, [0xFF, 0xD8])))
        #expect(dg12.issuingAuthority == "UTOPIA")
        #expect(dg12.dateOfIssue == "20120415")
        #expect(dg12.frontImage == [0xFF, 0xD8])
    }

    static let ecKey = DER.sequence(
        DER.sequence(DER.oid(DataGroup15.ecPublicKey), DER.oid("1.2.840.10045.3.1.7")),
        DER.tlv(0x03, [0x00, 0x04] + [UInt8](repeating: 7, count: 64)))

    @Test func dataGroup14RecognisesInfosByOID() throws {
        let infos = try SecurityInfos(dataGroup14: LDSEncoder.dataGroup14(securityInfos: [
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.4.2.2"), DER.integer(2), DER.integer(13)),  // id-PACE-ECDH-GM-AES-CBC-CMAC-128
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.1"), DER.integer(1)),  // id-CA-ECDH-3DES-CBC-CBC
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), Self.ecKey),  // id-PK-ECDH
            DER.sequence(DER.oid(.activeAuthentication), DER.integer(1), DER.oid("0.4.0.127.0.7.1.1.4.1.3")),
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.2"), DER.integer(1)),
            DER.sequence(DER.oid("1.2.3.4"), DER.integer(9)),
        ]))
        #expect(infos.infos.count == 6)
        #expect(infos.infos[0] == .pace(protocol: "0.4.0.127.0.7.2.2.4.2.2", version: 2, parameterID: 13))
        #expect(infos.infos[1] == .chipAuthentication(protocol: "0.4.0.127.0.7.2.2.3.2.1", version: 1, keyID: nil))
        #expect(infos.infos[2] == .chipAuthenticationPublicKey(protocol: "0.4.0.127.0.7.2.2.1.2", subjectPublicKeyInfo: Self.ecKey, keyID: nil))
        #expect(infos.infos[3] == .activeAuthentication(version: 1, signatureAlgorithm: "0.4.0.127.0.7.1.1.4.1.3"))
        #expect(infos.infos[4] == .terminalAuthentication(version: 1))
        if case .other(let oid, _) = infos.infos[5] { #expect(oid == "1.2.3.4") } else { Issue.record("expected .other") }
        #expect(infos.paceProtocols == ["0.4.0.127.0.7.2.2.4.2.2"])
    }

    @Test func cardAccessIsABareSet() throws {
        let infos = try SecurityInfos(cardAccess: DER.set(DER.sequence(DER.oid("0.4.0.127.0.7.2.2.4.2.2"), DER.integer(2), DER.integer(12))))
        #expect(infos.paceProtocols.count == 1)
        #expect(throws: LDSError.self) { try SecurityInfos(cardAccess: DER.set(DER.sequence(DER.integer(2)))) }
    }

    @Test func dataGroup15KeepsTheKeyInfo() throws {
        let group = try DataGroup15(LDSEncoder.dataGroup15(subjectPublicKeyInfo: Self.ecKey))
        #expect(group.algorithm.oid == DataGroup15.ecPublicKey)
        #expect(group.subjectPublicKeyInfo == Self.ecKey)
    }

    @Test func objectIdentifiersRoundTrip() {
        for text in ["2.23.136.1.1.1", "1.2.840.113549.1.7.2", "0.4.0.127.0.7.2.2.4.2.2", "2.999.16384"] {
            let oid = OID(stringLiteral: text)
            #expect(OID(contents: oid.contents) == oid)
            #expect(oid.description == text)
        }
        // X.690 example: 2.999.3 is 88 37 03.
        #expect(OID(contents: [0x88, 0x37, 0x03]) == "2.999.3")
        #expect(OID(contents: [0x88]) == nil)
        #expect(OID(contents: [0x80, 0x01]) == nil)
    }
}
