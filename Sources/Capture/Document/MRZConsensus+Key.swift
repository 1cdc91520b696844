import MRTD
import ScanFlow

extension ChipAccessKey {
    /// The key an MRZ makes (document number, birth and expiry dates), if its lines parse
    /// with `MRTD.MRZ`.
    init?(mrzLines lines: [String]) {
        guard let mrz = try? MRZ(lines.joined()) else { return nil }
        self = .mrz(documentNumber: mrz.documentNumber, dateOfBirth: mrz.birthDate, dateOfExpiry: mrz.expiryDate)
    }
}
