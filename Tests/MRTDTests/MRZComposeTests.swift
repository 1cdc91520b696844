import MRTD
import Testing

@Suite struct MRZComposeTests {
    /// Composing the ICAO Doc 9303 Part 4 specimen gives its published lines.
    @Test func composesTheSpecimen() throws {
        let lines = MRZ.composeTD3(
            issuingState: "UTO", primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA", documentNumber: "L898902C3",
            nationality: "UTO", birthDate: "740812", sex: "F", expiryDate: "120415", optionalData: "ZE184226B")
        #expect(lines == ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"])
        let mrz = try MRZ(lines.joined())
        #expect(mrz.documentNumber == "L898902C3")
    }

    /// Composing the ICAO Doc 9303 Part 5 TD1 specimen gives its published lines, composite
    /// check digit included.
    @Test func composesTheTD1Specimen() throws {
        let lines = MRZ.composeTD1(
            issuingState: "UTO", primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA", documentNumber: "D23145890",
            nationality: "UTO", birthDate: "740812", sex: "F", expiryDate: "120415")
        #expect(lines == ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"])
        let mrz = try MRZ(lines.joined())
        #expect(mrz.format == .td1)
        #expect(mrz.documentNumber == "D23145890")
    }
}
