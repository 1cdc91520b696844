/// The 7-3-1 check digit of ICAO Doc 9303 Part 3 §4.9.
package enum CheckDigit {
    /// The value of an MRZ character: digits as themselves, `A`–`Z` as 10–35, `<` as 0;
    /// `nil` for anything else.
    package static func value(of character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(character - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(character - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "<"): return 0
        default: return nil
        }
    }

    /// The check digit of `characters` as an ASCII digit; `nil` when one is not an MRZ character.
    package static func compute<C: Collection>(_ characters: C) -> UInt8? where C.Element == UInt8 {
        let weights = [7, 3, 1]
        var sum = 0
        for (index, character) in characters.enumerated() {
            guard let value = value(of: character) else { return nil }
            sum += value * weights[index % 3]
        }
        return UInt8(ascii: "0") + UInt8(sum % 10)
    }
}
