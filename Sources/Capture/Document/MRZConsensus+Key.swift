import MRTD
import ScanFlow

extension ChipAccessKey {
    /// The key an MRZ makes (document number, birth and expiry dates), if its lines parse
    /// with `MRTD.MRZ` and belong to a document with a chip: a visa's zone (document code V,
    /// ICAO 9303 Part 7), as a visa sticker on a passport's facing page carries, is not the
    /// passport's and makes no key.
    init?(mrzLines lines: [String]) {
        guard let mrz = try? MRZ(lines.joined()), !mrz.documentCode.hasPrefix("V") else { return nil }
        self = .mrz(documentNumber: mrz.documentNumber, dateOfBirth: mrz.birthDate, dateOfExpiry: mrz.expiryDate)
    }
}
