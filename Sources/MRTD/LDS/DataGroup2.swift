/// DG2 (Doc 9303 Part 10 §4.7.2): the encoded face, as biometric information templates
/// holding ISO/IEC 19794-5:2005 facial records (biometric data block 5F2E) or ISO/IEC
/// 39794-5 face image data blocks (DER, biometric data block 7F2E).
public struct DataGroup2: Hashable, Sendable {
    /// Every face image of every template, in file order (almost always one).
    public let faces: [FaceImage]

    /// Parses the file's bytes.
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .dg2)
        let root = try reader.expect(reader.parse(bytes), tag: 0x75, "the DG2 template")
        let group = try reader.expect(root.child(0x7F61), tag: 0x7F61, "the biometric information group template", in: root)
        var faces: [FaceImage] = []
        for template in group.children where template.tag == 0x7F60 {
            if let data = template.child(0x5F2E) {
                faces += try FaceImage.parseRecord(data, reader: reader)
            } else if let data = template.child(0x7F2E) {
                faces += try FaceImage.parseDataBlock39794(data, reader: reader)
            } else {
                throw reader.error("biometric template without biometric data block (5F2E)", at: template)
            }
        }
        guard !faces.isEmpty else { throw reader.error("no biometric information template (7F60)", at: group) }
        self.faces = faces
    }
}

/// The biometric record format a face came in.
public enum FaceRecordFormat: String, Hashable, Sendable {
    /// ISO/IEC 19794-5:2005 binary facial record ("FAC"), biometric data block 5F2E.
    case iso19794 = "ISO/IEC 19794-5"
    /// ISO/IEC 39794-5 DER face image data block ([APPLICATION 5]), biometric data block 7F2E.
    case iso39794 = "ISO/IEC 39794-5"
}

/// One face image of an ISO/IEC 19794-5:2005 facial record or an ISO/IEC 39794-5 face image
/// data block, with its metadata (the 19794-5 fields a 39794-5 block lacks are 0).
public struct FaceImage: Hashable, Sendable {
    /// How the image bytes are encoded (19794-5 §5.7.2 "image data type").
    public enum Encoding: String, Hashable, Sendable {
        case jpeg = "JPEG", jpeg2000 = "JPEG 2000"
    }

    public let encoding: Encoding
    public let width: Int
    public let height: Int
    /// Face image type: 0 basic, 1 full frontal, 2 token frontal (19794-5 §5.7.1).
    public let faceImageType: UInt8
    /// Image colour space: 1 sRGB, 2 YUV422, 3 greyscale (19794-5 §5.7.5).
    public let colorSpace: UInt8
    /// Source type: 2 digital still camera, 1 static photo from an unknown source… (§5.7.6).
    public let sourceType: UInt8
    /// Gender as the record codes it (0 unspecified, 1 male, 2 female, 0xFF unknown).
    public let gender: UInt8
    /// Eye and hair colour codes of §5.5.4 and §5.5.5.
    public let eyeColor: UInt8
    public let hairColor: UInt8
    /// Expression code (§5.5.7).
    public let expression: UInt16
    /// Yaw, pitch and roll codes (§5.5.8).
    public let poseAngle: [UInt8]
    /// How many feature points the record lists.
    public let featurePointCount: Int
    /// The encoded image: JPEG (starts FF D8) or JPEG 2000 (a JP2 box or a codestream).
    public let imageData: [UInt8]
    /// The record format the face came in.
    public var recordFormat: FaceRecordFormat = .iso19794

    /// The sizes of the 19794-5 structures.
    private enum Size {
        static let header = 14
        static let facialInformation = 20
        static let featurePoint = 8
        static let imageInformation = 12
    }

    /// Parses the records in a 5F2E biometric data block; offsets count from the file start.
    static func parseRecord(_ block: TLV, reader: ASN1Reader) throws(LDSError) -> [FaceImage] {
        let data = block.value
        let base = block.valueRange.lowerBound
        func fail(_ reason: String, at offset: Int) -> LDSError {
            LDSError(file: reader.file, offset: reader.base + base + offset, reason: reason)
        }
        func integer(_ at: Int, _ count: Int) -> Int {
            data[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        guard data.count >= Size.header else { throw fail("facial record header truncated", at: 0) }
        guard Array(data[0..<4]) == [0x46, 0x41, 0x43, 0x00] else {
            throw fail("biometric data is not an ISO/IEC 19794-5 facial record (no FAC header)", at: 0)
        }
        let recordLength = integer(8, 4)
        guard recordLength <= data.count else { throw fail("facial record claims \(recordLength) bytes but \(data.count) are present", at: 8) }
        let count = integer(12, 2)
        var position = Size.header
        var faces: [FaceImage] = []
        for _ in 0..<count {
            let start = position
            guard data.count - start >= Size.facialInformation else { throw fail("facial information block truncated", at: start) }
            let blockLength = integer(start, 4)
            let points = integer(start + 4, 2)
            let imageInformation = start + Size.facialInformation + points * Size.featurePoint
            let imageStart = imageInformation + Size.imageInformation
            guard blockLength >= imageStart - start, blockLength <= data.count - start else {
                throw fail("facial record block length \(blockLength) does not fit", at: start)
            }
            let imageEnd = start + blockLength
            let encoding: Encoding
            switch data[imageInformation + 1] {
            case 0: encoding = .jpeg
            case 1: encoding = .jpeg2000
            default: throw fail("unknown image data type \(data[imageInformation + 1])", at: imageInformation + 1)
            }
            faces.append(FaceImage(
                encoding: encoding,
                width: integer(imageInformation + 2, 2),
                height: integer(imageInformation + 4, 2),
                faceImageType: data[imageInformation],
                colorSpace: data[imageInformation + 6],
                sourceType: data[imageInformation + 7],
                gender: data[start + 6],
                eyeColor: data[start + 7],
                hairColor: data[start + 8],
                expression: UInt16(integer(start + 12, 2)),
                poseAngle: Array(data[(start + 14)..<(start + 17)]),
                featurePointCount: points,
                imageData: Array(data[imageStart..<imageEnd])))
            position = imageEnd
        }
        return faces
    }

    /// Parses an ISO/IEC 39794-5 face image data block in a 7F2E biometric data block:
    /// `[APPLICATION 5] { versionBlock [0], representationBlocks [1] SEQUENCE OF
    /// RepresentationBlock }`, each representation `{ representationId [0],
    /// imageRepresentation [1] { base [0] { imageRepresentation2DBlock [0] {
    /// representationData2D [0] OCTET STRING, imageInformation2DBlock [1] { imageDataFormat
    /// [0] { code [0] }, faceImageKind2D [1], …, imageSizeBlock [7] { width [0], height [1] },
    /// imageColourSpace [9] { code [0] } } } } } }`. Image data formats: 2 JPEG, 3 and 4
    /// JPEG 2000 (lossy, lossless); others are refused.
    static func parseDataBlock39794(_ block: TLV, reader: ASN1Reader) throws(LDSError) -> [FaceImage] {
        func integer(_ object: TLV?, _ what: String, in parent: TLV) throws(LDSError) -> Int {
            guard let object else { throw reader.error("\(what) is missing", at: parent) }
            guard !object.isConstructed, (1...4).contains(object.value.count), object.value[0] & 0x80 == 0 else {
                throw reader.error("\(what) is not a small non-negative integer", at: object)
            }
            return object.value.reduce(0) { $0 << 8 | Int($1) }
        }
        /// A CHOICE { code [0] INTEGER, extensionBlock [1] … }: the code, or nil for an extension.
        func code(_ object: TLV?, _ what: String, in parent: TLV) throws(LDSError) -> Int? {
            guard let object else { return nil }
            guard object.isConstructed else { return try integer(object, what, in: parent) }
            guard let value = object.child(0x80) else { return nil }
            return try integer(value, what, in: object)
        }
        // The data block itself, or (tolerated) its contents directly in 7F2E.
        let dataBlock = block.children.count == 1 && block.children[0].tag == 0x65 ? block.children[0] : block
        guard dataBlock.child(0xA0) != nil else { throw reader.error("ISO/IEC 39794-5 face data block without version block [0]", at: dataBlock) }
        let representations = try reader.expect(dataBlock.child(0xA1), tag: 0xA1, "the representation blocks [1]", in: dataBlock)
        var faces: [FaceImage] = []
        for representation in representations.children {
            let image = try reader.expect(representation.child(0xA1), tag: 0xA1, "the image representation [1]", in: representation)
            // imageRepresentation → base [0] → imageRepresentation2DBlock [0]
            guard let base = image.child(0xA0) else {
                throw reader.error("the image representation is not a 2D image (only the base representation is defined)", at: image)
            }
            let twoD = try reader.expect(base.child(0xA0), tag: 0xA0, "the 2D image representation block [0]", in: base)
            let data = try reader.expect(twoD.child(0x80), tag: 0x80, "the representation data [0]", in: twoD)
            let information = try reader.expect(twoD.child(0xA1), tag: 0xA1, "the image information block [1]", in: twoD)
            let encoding: Encoding
            switch try code(information.child(0xA0), "the image data format", in: information) {
            case 2: encoding = .jpeg
            case 3, 4: encoding = .jpeg2000
            case let other:
                throw reader.error("image data format \(other.map(String.init) ?? "(extension)") is not JPEG or JPEG 2000", at: information.child(0xA0) ?? information)
            }
            var width = 0, height = 0
            if let size = information.child(0xA7) {
                width = try integer(size.child(0x80), "the image width", in: size)
                height = try integer(size.child(0x81), "the image height", in: size)
            }
            let kind = try code(information.child(0xA1), "the face image kind", in: information) ?? 0
            let colourSpace = try code(information.child(0xA9), "the image colour space", in: information) ?? 0
            var face = FaceImage(
                encoding: encoding, width: width, height: height, faceImageType: UInt8(truncatingIfNeeded: kind),
                colorSpace: UInt8(truncatingIfNeeded: colourSpace), sourceType: 0, gender: 0, eyeColor: 0, hairColor: 0, expression: 0,
                poseAngle: [], featurePointCount: 0, imageData: data.value)
            face.recordFormat = .iso39794
            faces.append(face)
        }
        guard !faces.isEmpty else { throw reader.error("ISO/IEC 39794-5 face data block without representations", at: representations) }
        return faces
    }

    /// Whether the image bytes start as their encoding says: FF D8 FF for JPEG, a JP2
    /// signature box or an FF 4F FF 51 codestream for JPEG 2000.
    public var hasExpectedSignature: Bool {
        switch encoding {
        case .jpeg: return imageData.starts(with: [0xFF, 0xD8, 0xFF])
        case .jpeg2000:
            return imageData.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || imageData.starts(with: [0xFF, 0x4F, 0xFF, 0x51])
        }
    }
}

extension DataGroup2: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "DG2(\(faces.count) face image(s), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension FaceImage: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Encoding and size only: the image is personal data.
    public var description: String {
        "FaceImage(\(recordFormat.rawValue), \(encoding.rawValue), \(width)x\(height), \(imageData.count) bytes, redacted)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
