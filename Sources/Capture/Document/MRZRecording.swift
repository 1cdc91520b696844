import Foundation
import MRTD
import ScanFlow

/// The MRZ of a recording: the file beside it (`NAME.mrz`, what `idkiosk sim recordings`
/// writes) stands in for an MRZ reader until the `Vision` module reads the zone itself.
enum MRZRecording {
    /// The MRZ lines beside the recording at `path`, if there is such a file.
    static func lines(besides path: String?) -> [String]? {
        guard let path else { return nil }
        let base = (path as NSString).deletingPathExtension
        for candidate in [base + ".mrz", path + ".mrz"] {
            if let text = try? String(contentsOfFile: candidate, encoding: .utf8) {
                let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                return lines.isEmpty ? nil : lines
            }
        }
        return nil
    }

    /// The chip key the MRZ makes (document number, birth and expiry dates), if it parses.
    static func chipKey(_ lines: [String]?) -> ChipAccessKey? {
        guard let lines, let mrz = try? MRZ(lines.joined()) else { return nil }
        return .mrz(documentNumber: mrz.documentNumber, dateOfBirth: mrz.birthDate, dateOfExpiry: mrz.expiryDate)
    }
}
