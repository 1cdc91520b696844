import APDU
import Camera
import Foundation
import FuzzDriver
import Imaging
import MRTD
import Vision
import VirtualPassport

// idkiosk-fuzz: the parsers and analysis entry points that take bytes from outside (a
// camera, a file, a chip), one input at a time; idkiosk-fuzz-station has the station's.
//
// `idkiosk-fuzz TARGET [libFuzzer options] [CORPUS...]`, or `idkiosk-fuzz TARGET FILE...` in a
// normal build (FuzzDriver).

/// One input to one target; never throws or traps on bad input (errors are values).
func run(_ target: String, _ bytes: [UInt8]) {
    switch target {
    case "png":
        _ = try? PNGCodec.decodeLuma(bytes)
    case "jpeg":
        var image = LumaImage()
        _ = try? JPEGCodec().decodeLuma(bytes, into: &image)
    case "mjpeg":
        for frame in MJPEG.split(bytes).prefix(4) {
            var image = LumaImage()
            _ = try? JPEGCodec().decodeLuma(frame, into: &image)
        }
    case "y4m":
        _ = try? Y4MHeader.parse(bytes)
    case "mrz-text":
        _ = try? MRZ(String(decoding: bytes, as: UTF8.self))
    case "aamva":
        // A decoded barcode's bytes: the record, its typed fields, its error's description.
        do {
            let record = try AAMVARecord(bytes)
            _ = (try? record.validated(), try? record.date("DBB"), record.postalCode, record.street, record.sex, record.hasAddress)
        } catch {
            _ = error.description
        }
    case "finder":
        // The first two bytes give the size (up to 255 x 255), the rest the pixels; then the
        // sides of a quadrilateral from the first eight pixels (anywhere, of any shape, as a
        // page predicted from its MRZ may be) brought to the image's edges.
        guard bytes.count >= 2, let finder = Fuzz.finder else { return }
        let (width, height) = (Int(bytes[0]) + 1, Int(bytes[1]) + 1)
        var pixels = Array(bytes.dropFirst(2).prefix(width * height))
        pixels += [UInt8](repeating: 0, count: width * height - pixels.count)
        let image = LumaImage(width: width, height: height, pixels: pixels)
        _ = try? finder.observe(image, learning: true)
        guard pixels.count >= 8 else { return }
        let corners = (0..<4).map { Point(x: Double(pixels[2 * $0]) - 64, y: Double(pixels[2 * $0 + 1]) - 64) }
        _ = try? finder.snapped(Quadrilateral(corners), as: .td3, in: image, inward: 0.2, outward: 0.2)
    case "mrz-reader":
        // A crop of a TD1 card's size with the bytes as its bottom rows.
        guard let reader = Fuzz.reader else { return }
        var pixels = [UInt8](repeating: 230, count: 856 * 540)
        let start = pixels.count - min(bytes.count, pixels.count)
        pixels.replaceSubrange(start..., with: bytes.prefix(pixels.count))
        _ = reader.read(LumaImage(width: 856, height: 540, pixels: pixels))
    case "mrz-locator":
        // As `face`: two bytes of half size (up to 512 x 512), the rest the pixels; the MRZ
        // looked for anywhere in the frame (lines, groups, cuts, reads, the page predicted).
        guard bytes.count >= 2, let locator = Fuzz.locator else { return }
        let (width, height) = (2 * Int(bytes[0]) + 2, 2 * Int(bytes[1]) + 2)
        var pixels = Array(bytes.dropFirst(2).prefix(width * height))
        pixels += [UInt8](repeating: 0, count: width * height - pixels.count)
        _ = try? locator.locate(in: LumaImage(width: width, height: height, pixels: pixels))
    case "face":
        // As `finder`: two bytes of size (times two, up to 512 x 512), the rest the pixels;
        // the faces found, their guidance, and the liveness checks on them.
        guard bytes.count >= 2, let detector = Fuzz.faceDetector else { return }
        let (width, height) = (2 * Int(bytes[0]) + 2, 2 * Int(bytes[1]) + 2)
        var pixels = Array(bytes.dropFirst(2).prefix(width * height))
        pixels += [UInt8](repeating: 128, count: width * height - pixels.count)
        let image = LumaImage(width: width, height: height, pixels: pixels)
        guard let observation = try? detector.observe(image) else { return }
        var guidance = FaceGuidance()
        _ = guidance.observe(observation)
        var analyzer = LivenessAnalyzer()
        for (k, face) in observation.faces.enumerated() { analyzer.add(image, face: face, lit: k % 2 == 0) }
        _ = analyzer.result()
    case "dg2":
        // A chip's DG2 as a hostile chip might send it: parsed, its first image decoded
        // (JPEG or JPEG 2000) and looked at for a face.
        guard let face = (try? DataGroup2(bytes))?.faces.first else { return }
        guard let rgb = try? ImageFile.decodeRGB(face.imageData), rgb.width <= 1024, rgb.height <= 1024 else { return }
        _ = try? Fuzz.faceDetector?.observe(LumaImage(rgb))
    case "tlv":
        _ = try? TLV.parseAll(bytes)
    case "lds":
        // The first byte picks the file, the rest is its contents as a chip might send it.
        guard let kind = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        switch kind % 10 {
        case 0: _ = try? EFCOM(body)
        case 1: _ = try? DataGroup1(body)
        case 2: _ = try? DataGroup7(body)
        case 3: _ = try? DataGroup11(body)
        case 4: _ = try? DataGroup12(body)
        case 5: _ = try? SecurityInfos(dataGroup14: body)
        case 6: _ = try? DataGroup15(body)
        case 7: _ = try? SecurityInfos(cardAccess: body)
        case 8: _ = try? SecurityInfos(cardSecurity: body)
        default: _ = try? DataGroup2(body)
        }
    case "sod":
        // EF.SOD: the LDS security object, and its CMS signature as passive authentication reads it.
        _ = try? SecurityObject(bytes)
        _ = PassiveAuthentication.verify(files: [.sod: bytes, .dg1: [0x61, 0x00]], trustStore: TrustStore(certificates: []), at: 1_800_000_000)
    case "sm":
        // A protected answer: the first byte picks the cipher and whether the rest is the
        // answer's data as it is, or data objects under a valid MAC (past the MAC check).
        guard let first = bytes.first else { return }
        let cipher: SecureMessagingCipher = [.tripleDES, .aes128, .aes192, .aes256][Int(first % 4)]
        let key = [UInt8](repeating: 0x5A, count: cipher.keyLength)
        guard var reader = try? SecureMessaging(cipher: cipher, encryptionKey: key, macKey: key, sendSequenceCounter: [UInt8](repeating: 0, count: cipher.blockSize))
        else { return }
        var chip = reader
        let rest = Array(bytes.dropFirst())
        let response = first & 0x80 == 0 ? ResponseAPDU(data: rest, status: .success) : chip.sealed(objects: rest)
        _ = try? reader.unprotect(response)
    case "atr":
        _ = try? ATR(bytes: bytes)
    default:
        break  // FuzzDriver.main takes only the targets of Fuzz.targets
    }
}

enum Fuzz {
    static let targets = ["png", "jpeg", "mjpeg", "y4m", "mrz-text", "aamva", "finder", "mrz-reader", "mrz-locator", "face", "dg2", "tlv", "lds", "sod", "sm", "atr"]
    nonisolated(unsafe) static var finder: DocumentFinder? = try? DocumentFinder()
    /// The MRZ model from IDKIOSK_MODELS (default .cache/models); the mrz-reader target needs it.
    nonisolated(unsafe) static var reader: MRZReader? = (try? MRZModel(folder: ProcessInfo.processInfo.environment["IDKIOSK_MODELS"] ?? ".cache/models"))
        .map { MRZReader(model: $0) }
    /// The MRZ locator with that reader (the mrz-locator target).
    nonisolated(unsafe) static var locator: MRZLocator? = reader.map { MRZLocator(reader: $0) }
    /// The face detector with the face models of IDKIOSK_MODELS (without them: no landmarks).
    nonisolated(unsafe) static var faceDetector: FaceDetector? = try? FaceDetector(
        models: try? FaceModels(folder: ProcessInfo.processInfo.environment["IDKIOSK_MODELS"] ?? ".cache/models"))
}

FuzzDriver.main(name: "idkiosk-fuzz", targets: Fuzz.targets, run: run)
