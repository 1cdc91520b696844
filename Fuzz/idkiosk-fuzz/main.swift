import APDU
import Camera
import Display
import Foundation
import Imaging
import MRTD
import Station
import Vision

// idkiosk-fuzz: the parsers and analysis entry points that take bytes from outside (a
// camera, a file, a chip, a display, a technician's configuration), one input at a time.
//
// Built by `make fuzz` with coverage and AddressSanitizer and linked with libFuzzer
// (-DFUZZING): `idkiosk-fuzz TARGET [libFuzzer options] [CORPUS...]`. In a normal build it
// replays files instead: `idkiosk-fuzz TARGET FILE...` runs each file once (a crash found
// by the fuzzer, kept as a regression input).

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
    case "finder":
        // The first two bytes give the size (up to 255 x 255), the rest the pixels.
        guard bytes.count >= 2 else { return }
        let (width, height) = (Int(bytes[0]) + 1, Int(bytes[1]) + 1)
        var pixels = Array(bytes.dropFirst(2).prefix(width * height))
        pixels += [UInt8](repeating: 0, count: width * height - pixels.count)
        let image = LumaImage(width: width, height: height, pixels: pixels)
        _ = try? Fuzz.finder?.observe(image, learning: true)
    case "mrz-reader":
        // A crop of a TD1 card's size with the bytes as its bottom rows.
        guard let reader = Fuzz.reader else { return }
        var pixels = [UInt8](repeating: 230, count: 856 * 540)
        let start = pixels.count - min(bytes.count, pixels.count)
        pixels.replaceSubrange(start..., with: bytes.prefix(pixels.count))
        _ = reader.read(LumaImage(width: 856, height: 540, pixels: pixels))
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
    case "display-command":
        // A text frame from a display (browser or Custom UI) as the display server decodes
        // it; a command it accepts must survive its own encoding unchanged.
        guard let input = try? DisplayInput(json: bytes) else { return }
        let encoded = try? JSONEncoder().encode(input)
        let again = encoded.flatMap { try? DisplayInput(json: $0) }
        precondition(again == input, "display-command: \(input) does not decode from its own JSON")
    case "config":
        // The station's configuration file as `idkiosk` loads it (Yams, then every key
        // checked), and its error as a technician reads it.
        do throws(ConfigurationError) {
            _ = try Configuration.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml")
        } catch {
            _ = error.description
        }
    default:
        FileHandle.standardError.write(Data("idkiosk-fuzz: unknown target \(target); one of \(Fuzz.targets.joined(separator: ", "))\n".utf8))
        exit(64)
    }
}

enum Fuzz {
    static let targets = [
        "png", "jpeg", "mjpeg", "y4m", "mrz-text", "finder", "mrz-reader", "face", "dg2", "tlv", "lds", "sod", "sm", "atr",
        "display-command", "config",
    ]
    nonisolated(unsafe) static var target = ""
    nonisolated(unsafe) static var finder: DocumentFinder? = try? DocumentFinder()
    /// The MRZ model from IDKIOSK_MODELS (default .cache/models); the mrz-reader target needs it.
    nonisolated(unsafe) static var reader: MRZReader? = (try? MRZModel(folder: ProcessInfo.processInfo.environment["IDKIOSK_MODELS"] ?? ".cache/models"))
        .map { MRZReader(model: $0) }
    /// The face detector with the face models of IDKIOSK_MODELS (without them: no landmarks).
    nonisolated(unsafe) static var faceDetector: FaceDetector? = try? FaceDetector(
        models: try? FaceModels(folder: ProcessInfo.processInfo.environment["IDKIOSK_MODELS"] ?? ".cache/models"))
}

var arguments = CommandLine.arguments
guard arguments.count >= 2, Fuzz.targets.contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: idkiosk-fuzz TARGET [FILE... | libFuzzer options]; TARGET: \(Fuzz.targets.joined(separator: ", "))\n".utf8))
    exit(64)
}
Fuzz.target = arguments.remove(at: 1)

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var argc = CInt(arguments.count)
var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
let status = cStrings.withUnsafeMutableBufferPointer { buffer -> CInt in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return runDriver(&argc, &argv) { data, size in
        run(Fuzz.target, data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
}
exit(status)
#else
for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("idkiosk-fuzz: cannot read \(path)\n".utf8))
        exit(66)
    }
    run(Fuzz.target, [UInt8](data))
}
print("\(Fuzz.target): \(arguments.count - 1) input(s) ran")
#endif
