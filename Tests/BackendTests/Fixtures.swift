import Backend
import Foundation
public import KioskTestKit
import ReferenceBackend
import Synchronization
public import Testing

/// Fixtures: documents of the ICAO 9303 specimen holder, made valid or expired on purpose.
enum Fixtures {
    /// TD3 with check digits valid and expiry 2034-12-31.
    static let validMRZ = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F3412318ZE184226B<<<<<18"]
    /// The ICAO specimen as printed: expired in 2012.
    static let expiredMRZ = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    /// The valid one with its document number check digit broken.
    static let badCheckDigitMRZ = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C37UTO7408122F3412318ZE184226B<<<<<18"]

    /// A real JPEG of a sharp, well-lit document-like page of this size.
    static func jpeg(width: Int, height: Int) -> Data {
        // Made once per size, under the lock, so parallel tests do not all make it at once.
        jpegs.withLock { cache in
            if let cached = cache["\(width)x\(height)"] { return cached }
            let made = TestImages.jpeg(TestImages.page(width: width, height: height))
            cache["\(width)x\(height)"] = made
            return made
        }
    }

    private static let jpegs = Mutex<[String: Data]>([:])

    /// Only a JPEG header with a start-of-frame of this size: no image to decode.
    static func jpegHeader(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                  0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    static func mrzPart(_ lines: [String]) -> Data {
        try! JSONEncoder().encode(MrzData(lines: lines))
    }

    /// DG1 (template 0x61 holding 0x5F1F) with this MRZ, and the station's verification.
    static func chipPart(_ lines: [String], stationPA: Decision = .PASSED) -> Data {
        let mrz = Array(lines.joined().utf8)
        let inner: [UInt8] = [0x5F, 0x1F, UInt8(mrz.count)] + mrz
        let dg1: [UInt8] = [0x61, UInt8(inner.count)] + inner
        let chip = ChipData(dataGroups: ["DG1": Data(dg1)], stationVerification: .init(passiveAuthentication: stationPA, accessControl: "BAC"))
        return try! JSONEncoder().encode(chip)
    }

    static func account(key: Int = 10015, callbackURL: String? = nil, tokenLifetime: Int? = nil) -> AccountRequest {
        AccountRequest(
            customerInternalReference: "kiosk-test/0001", userReference: "visitor-42", reportingCriteria: "contract-test",
            callbackUrl: callbackURL, tokenLifetime: tokenLifetime,
            workflowDefinition: WorkflowDefinition(key: key, credentials: nil)
        )
    }
}

extension AccountResponse {
    func credential(_ category: CredentialCategory) throws -> CredentialResponse {
        guard let credential = workflowExecution.credentials.first(where: { $0.category == category }) else {
            throw TestFailure("no \(category) credential")
        }
        return credential
    }
}

extension TestStorage: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
