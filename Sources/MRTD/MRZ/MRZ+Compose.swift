extension MRZ {
    /// The two lines of a TD3 (passport) MRZ with every check digit computed, for test
    /// documents and the demo's virtual passport. Names and fields are upper-case A-Z,
    /// digits and `<`; longer values are cut to their field.
    public static func composeTD3(
        documentCode: String = "P", issuingState: String, primaryIdentifier: String, secondaryIdentifier: String,
        documentNumber: String, nationality: String, birthDate: String, sex: String, expiryDate: String, optionalData: String = ""
    ) -> [String] {
        func field(_ text: String, _ width: Int) -> String {
            let cleaned = text.uppercased().map { $0 == " " ? "<" : $0 }
            return String(String(cleaned).prefix(width)).padding(toLength: width, withPad: "<", startingAt: 0)
        }
        func digit(_ text: String) -> String { CheckDigit.compute(Array(text.utf8)).map { String(UnicodeScalar($0)) } ?? "<" }
        let name = field(primaryIdentifier + "<<" + secondaryIdentifier, 39)
        let line1 = field(documentCode, 2) + field(issuingState, 3) + name
        let number = field(documentNumber, 9)
        let optional = field(optionalData, 14)
        let body = number + digit(number) + field(nationality, 3) + birthDate + digit(birthDate) + field(sex, 1)
            + expiryDate + digit(expiryDate) + optional + digit(optional)
        let composite = number + digit(number) + birthDate + digit(birthDate) + expiryDate + digit(expiryDate) + optional + digit(optional)
        return [line1, body + digit(composite)]
    }
}
