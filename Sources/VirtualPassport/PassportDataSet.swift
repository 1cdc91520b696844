public import MRTD
public import Imaging

/// The files of a test passport, built at run time from an MRZ and a face.
///
/// The face is by default ``SyntheticFace``: a real JPEG of a drawn head and shoulders
/// (480 × 640, about 25 KB). Tests that need a face of an exact size ask for a JFIF-framed
/// payload instead (``jfifPayload(size:seed:)``: SOI, APP0 "JFIF", comment segments of
/// deterministic bytes, EOI), which has a JPEG's framing and size but no picture.
public struct PassportDataSet: Sendable {
    /// The MRZ, two TD3 lines concatenated.
    public var mrz: String
    /// The LDS files of the eMRTD application.
    public var files: [LDSFile: [UInt8]]
    /// EF.CardAccess, when the chip should have one.
    public var cardAccess: [UInt8]?

    /// The BAC key of this document.
    /// - Throws: ``MRZError`` when `mrz` does not parse.
    public func key() throws(MRZError) -> MRZKey { try MRZ(mrz).key }

    /// The specimen of ICAO Doc 9303 Part 4 (Anna Maria Eriksson of Utopia).
    public static let specimenMRZ = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C36UTO7408122F1204159ZE184226B<<<<<10"

    /// EF.CardAccess offering one PACEInfo (version 2) with a standardized domain parameter ID;
    /// by default id-PACE-ECDH-GM-AES-CBC-CMAC-128 on brainpoolP256r1.
    public static func paceCardAccess(protocol protocolID: OID = "0.4.0.127.0.7.2.2.4.2.2", parameterID: Int = 13) -> [UInt8] {
        paceCardAccess(offering: [(protocolID, parameterID)])
    }

    /// EF.CardAccess offering several PACEInfos (version 2), in this order: a chip with
    /// several parameter sets, whose MSE:Set AT must name the one chosen (DO'84').
    public static func paceCardAccess(offering offers: [(protocol: OID, parameterID: Int)]) -> [UInt8] {
        let infos = offers.map { DER.sequence(DER.oid($0.protocol), DER.integer(2), DER.integer($0.parameterID)) }
        return DER.set(infos.flatMap { $0 })
    }

    /// A JFIF-framed payload of exactly `size` bytes (at least 24).
    public static func jfifPayload(size: Int, seed: UInt64 = 0x1CA0) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += [0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00]
        var state = seed
        var remaining = max(0, size - out.count - 2)
        while remaining > 0 {
            guard remaining >= 5 else {
                // Too short for a segment: fill bytes (0xFF), which T.81 §B.1.1.2 allows before a marker.
                out += [UInt8](repeating: 0xFF, count: remaining)
                break
            }
            // A comment segment carries at most 65533 bytes after its marker and length.
            let body = min(65533, remaining - 4)
            out += [0xFF, 0xFE, UInt8((body + 2) >> 8), UInt8((body + 2) & 0xFF)]
            for _ in 0..<body {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                out.append(UInt8(truncatingIfNeeded: state >> 33))
            }
            remaining -= body + 4
        }
        return out + [0xFF, 0xD9]
    }

    /// The files of a document: EF.COM, DG1, DG2 (the synthetic face JPEG, or a payload of
    /// `faceSize` bytes), DG11, DG12, DG14 and DG15 when given, and EF.SOD from `signSecurityObject` over
    /// their hashes.
    /// - Parameters:
    ///   - mrz: the two TD3 lines, concatenated.
    ///   - faceSize: `nil` for the real JPEG of ``SyntheticFace``, or the exact size of a
    ///     JFIF-framed payload.
    ///   - faceEncoding: JPEG or JPEG 2000 (the synthetic face encoded as JP2 with OpenJPEG;
    ///     with `faceSize`, a JP2 signature followed by filler).
    ///   - faceFormat: the biometric record of DG2: ISO/IEC 19794-5 or ISO/IEC 39794-5.
    ///   - portrait: the holder's photograph for DG2 instead of the synthetic face (a real
    ///     portrait, as the demo's passport holds), encoded as `faceEncoding` says.
    ///   - dataGroup11: DG11 contents (additional personal details), or `nil`.
    ///   - dataGroup12: DG12 contents (additional document details), or `nil`.
    ///   - dataGroup14: DG14 contents, or `nil`.
    ///   - dataGroup15: DG15 contents, or `nil`.
    ///   - hashAlgorithm: the hash algorithm of EF.SOD.
    ///   - signSecurityObject: wraps the LDSSecurityObject DER into EF.SOD (CMS SignedData inside tag 77).
    public static func make(
        mrz: String = specimenMRZ, faceSize: Int? = nil, faceEncoding: FaceImage.Encoding = .jpeg, faceFormat: FaceRecordFormat = .iso19794, portrait: RGBImage? = nil,
        dataGroup11: [UInt8]? = nil, dataGroup12: [UInt8]? = nil, dataGroup14: [UInt8]? = nil, dataGroup15: [UInt8]? = nil,
        hashAlgorithm: HashAlgorithm = .sha256, signSecurityObject: ([UInt8]) throws -> [UInt8]
    ) throws -> PassportDataSet {
        var files: [LDSFile: [UInt8]] = [
            .dg1: LDSEncoder.dataGroup1(mrz: mrz),
        ]
        if let faceSize {
            var payload = jfifPayload(size: faceSize)
            if faceEncoding == .jpeg2000 {
                // The JP2 signature box, then filler: the framing of JPEG 2000, no picture.
                payload.replaceSubrange(0..<12, with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
            }
            files[.dg2] = LDSEncoder.dataGroup2(image: payload, encoding: faceEncoding, width: 480, height: 600, format: faceFormat)
        } else if let portrait {
            let image = faceEncoding == .jpeg ? try JPEGCodec().encode(portrait, quality: 80) : try JPEG2000.encode(portrait, ratio: 20)
            files[.dg2] = LDSEncoder.dataGroup2(image: image, encoding: faceEncoding, width: portrait.width, height: portrait.height, format: faceFormat)
        } else {
            let image = faceEncoding == .jpeg ? try SyntheticFace.jpeg() : try SyntheticFace.jpeg2000()
            files[.dg2] = LDSEncoder.dataGroup2(
                image: image, encoding: faceEncoding, width: SyntheticFace.width, height: SyntheticFace.height, format: faceFormat)
        }
        if let dataGroup11 { files[.dg11] = dataGroup11 }
        if let dataGroup12 { files[.dg12] = dataGroup12 }
        if let dataGroup14 { files[.dg14] = dataGroup14 }
        if let dataGroup15 { files[.dg15] = dataGroup15 }
        var hashes: [Int: [UInt8]] = [:]
        for (file, bytes) in files {
            if let number = file.dataGroupNumber { hashes[number] = try hashAlgorithm.hash(bytes) }
        }
        files[.com] = LDSEncoder.com(dataGroups: files.keys.filter { $0.dataGroupNumber != nil }.sorted())
        files[.sod] = try signSecurityObject(LDSEncoder.securityObject(hashAlgorithm: hashAlgorithm.oid, hashes: hashes))
        return PassportDataSet(mrz: mrz, files: files)
    }
}
