import MRTD

/// The demo's passport: a specimen valid until 2034 from the test country Utopia, the same
/// on the virtual chip (`idkiosk sim passport`) and in the file camera's recording.
public enum DemoPassport {
    public static let mrz = MRZ.composeTD3(
        issuingState: "UTO", primaryIdentifier: "SPECIMEN", secondaryIdentifier: "ALEX", documentNumber: "D23145890",
        nationality: "UTO", birthDate: "900101", sex: "F", expiryDate: "341231")
}

/// The demo's identity card: a TD1 specimen of the same holder and document number, so the
/// chip opens with the same key, read from the card's back.
public enum DemoIDCard {
    public static let mrz = MRZ.composeTD1(
        issuingState: "UTO", primaryIdentifier: "SPECIMEN", secondaryIdentifier: "ALEX", documentNumber: "D23145890",
        nationality: "UTO", birthDate: "900101", sex: "F", expiryDate: "341231")
}
