extension MRZ {
    /// The two lines of a TD3 (passport) MRZ with every check digit computed, for test
    /// documents and the demo's virtual passport. Names and fields are upper-case A-Z,
    /// digits and `<`; longer values are cut to their field.
    public static func composeTD3(
        documentCode: String = "P", issuingState: String, primaryIdentifier: String, secondaryIdentifier: String,
        documentNumber: String, nationality: String, birthDate: String, sex: String, expiryDate: String, optionalData: String = ""
    ) -> [String] {
        let name = field(primaryIdentifier + "<<" + secondaryIdentifier, 39)
        let line1 = field(documentCode, 2) + field(issuingState, 3) + name
        let number = field(documentNumber, 9)
        let optional = field(optionalData, 14)
        let body = number + digit(number) + field(nationality, 3) + birthDate + digit(birthDate) + field(sex, 1)
            + expiryDate + digit(expiryDate) + optional + digit(optional)
        let composite = number + digit(number) + birthDate + digit(birthDate) + expiryDate + digit(expiryDate) + optional + digit(optional)
        return [line1, body + digit(composite)]
    }

    /// The three lines of a TD1 (identity card) MRZ with every check digit computed (ICAO Doc
    /// 9303 Part 5 §4.2), for test documents and the demo's virtual identity card; fields as
    /// for ``composeTD3(documentCode:issuingState:primaryIdentifier:secondaryIdentifier:documentNumber:nationality:birthDate:sex:expiryDate:optionalData:)``.
    public static func composeTD1(
        documentCode: String = "I", issuingState: String, primaryIdentifier: String, secondaryIdentifier: String,
        documentNumber: String, nationality: String, birthDate: String, sex: String, expiryDate: String, optionalData: String = ""
    ) -> [String] {
        let number = field(documentNumber, 9)
        let line1 = field(documentCode, 2) + field(issuingState, 3) + number + digit(number) + field(optionalData, 15)
        let line2 = birthDate + digit(birthDate) + field(sex, 1) + expiryDate + digit(expiryDate) + field(nationality, 3) + field("", 11)
        // The composite check digit covers line 1 after the state, and line 2's dates and optional data.
        let (upper, middle) = (Array(line1), Array(line2))
        let composite = String(upper[5..<30] + middle[0..<7] + middle[8..<15] + middle[18..<29])
        return [line1, line2 + digit(composite), field(primaryIdentifier + "<<" + secondaryIdentifier, 30)]
    }

    /// A field of the zone: upper case, spaces as fillers, cut or padded with `<` to `width`.
    private static func field(_ text: String, _ width: Int) -> String {
        let cleaned = String(text.uppercased().map { $0 == " " ? "<" : $0 })
        return String(cleaned.prefix(width)).padding(toLength: width, withPad: "<", startingAt: 0)
    }

    /// The check digit of `text` as a character (`<` for text a check digit cannot cover).
    private static func digit(_ text: String) -> String {
        CheckDigit.compute(Array(text.utf8)).map { String(UnicodeScalar($0)) } ?? "<"
    }
}
