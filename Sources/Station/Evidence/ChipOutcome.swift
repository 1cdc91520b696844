public import Backend
public import Capture
import Foundation
import MRTD

/// What a chip read gives the backend: the data to upload, with the station's own verdict,
/// and a summary for the log.
public struct ChipOutcome: Sendable, CustomStringConvertible {
    public var chipData: ChipData
    public var summary: String

    public init(chipData: ChipData, summary: String) {
        self.chipData = chipData
        self.summary = summary
    }

    /// The upload and the station's own verdict from a chip capture's reading: passive
    /// authentication as the capture checked it (not executed without a trust store), active
    /// and chip authentication as the chip answered (a chip that does not offer one says
    /// NOT_SUPPORTED). The summary names no personal data.
    public init(_ reading: ChipReading) {
        let contents = reading.contents
        var groups: [String: Data] = [:]
        for (file, bytes) in contents.files {
            if file == .sod { groups["SOD"] = Data(bytes) } else if file == .com { groups["COM"] = Data(bytes) } else if let number = file.dataGroupNumber {
                groups["DG\(number)"] = Data(bytes)
            }
        }
        let pa = reading.passiveAuthentication.map { Self.decision($0.outcome) } ?? .NOT_EXECUTED
        let aa = reading.activeAuthentication.map(Self.check)
        let ca = reading.chipAuthentication.map(Self.check)
        let access = contents.accessControl.rawValue.uppercased()
        let data = ChipData(
            dataGroups: groups,
            stationVerification: .init(passiveAuthentication: pa, activeAuthentication: aa, chipAuthentication: ca, accessControl: access))
        let summary = "\(access), PA \(pa.rawValue)" + (ca.map { ", CA \($0.outcome.rawValue)" } ?? "") + (aa.map { ", AA \($0.outcome.rawValue)" } ?? "")
            + ", \(contents.statistics.total.commands) APDUs" + (contents.paceFailure.map { ", PACE failed (\($0))" } ?? "")
        self.init(chipData: data, summary: summary)
    }

    static func decision(_ outcome: VerificationCheck.Outcome) -> Decision {
        switch outcome {
        case .passed: .PASSED
        case .failed: .REJECTED
        case .notSupported: .NOT_EXECUTED
        }
    }

    /// A check only the chip can answer, with the reader's reason (no personal data).
    static func check(_ check: VerificationCheck) -> ChipCheck {
        switch check.outcome {
        case .passed: ChipCheck(.PASSED, reason: check.reason)
        case .failed: ChipCheck(.FAILED, reason: check.reason)
        case .notSupported: ChipCheck(.NOT_SUPPORTED, reason: check.reason)
        }
    }

    /// The portrait in the chip's DG2 (JPEG or JPEG 2000), for the station's face match.
    public var portrait: [UInt8]? {
        guard let dg2 = chipData.dataGroups["DG2"] else { return nil }
        return (try? DataGroup2([UInt8](dg2)))?.faces.first?.imageData
    }

    public var description: String { "ChipOutcome(\(summary))" }
}
