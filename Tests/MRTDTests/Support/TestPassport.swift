import APDU
@testable import MRTD
import Synchronization
import VirtualPassport

/// Test passports: the specimen's files around an unsigned SignedData, for reading tests
/// that do not verify signatures.
enum TestPassport {
    /// EF.SOD around `content` with a placeholder signature (RFC 5652 shape, not verifiable).
    static func unsignedSOD(_ content: [UInt8]) -> [UInt8] {
        let signerInfo = DER.sequence(
            DER.integer(1), DER.sequence(DER.sequence(), DER.integer(1)), DER.algorithm(.sha256),
            DER.algorithm("1.2.840.10045.4.3.2"), DER.octetString([0x30, 0x00]))
        let signedData = DER.sequence(
            DER.integer(3), DER.set(DER.algorithm(.sha256)),
            DER.sequence(DER.oid(.ldsSecurityObject), DER.tlv(0xA0, DER.octetString(content))),
            DER.set(signerInfo))
        return DER.tlv(0x77, DER.sequence(DER.oid(.signedData), DER.tlv(0xA0, signedData)))
    }

    static func dataSet(faceSize: Int = 20_000) throws -> PassportDataSet {
        try PassportDataSet.make(
            faceSize: faceSize, dataGroup15: LDSEncoder.dataGroup15(subjectPublicKeyInfo: LDSTests.ecKey),
            signSecurityObject: { unsignedSOD($0) })
    }

    static func passport(_ dataSet: PassportDataSet, quirks: PassportQuirks = PassportQuirks()) throws -> VirtualPassport {
        VirtualPassport(key: try dataSet.key(), files: dataSet.files, cardAccess: dataSet.cardAccess, quirks: quirks)
    }
}

/// A transport in front of another that says it carries no extended length APDUs and
/// fails the exchange when asked to, as many readers do.
final class ShortLengthTransport: APDUTransport {
    struct Refused: Error {}
    let base: any APDUTransport
    init(_ base: any APDUTransport) { self.base = base }
    var supportsExtendedLength: Bool? { false }
    func transmit(_ command: CommandAPDU) async throws -> ResponseAPDU {
        if command.needsExtendedLength { throw Refused() }
        return try await base.transmit(command)
    }
}

/// Collects progress reports from any thread.
final class ProgressLog: Sendable {
    private let values = Mutex<[ChipReadProgress]>([])
    var all: [ChipReadProgress] { values.withLock { $0 } }
    func record(_ progress: ChipReadProgress) { values.withLock { $0.append(progress) } }
}
