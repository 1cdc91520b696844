/// The ICAO 9303 layouts as the reader needs them: which characters each position may
/// hold (field-type correction) and where the check digits are.
enum MRZLayout {
    /// The characters a position may hold.
    enum Allowed: Sendable {
        /// Digits: check digits and dates of expiry.
        case digits
        /// Digits or the filler: a date of birth (unknown parts), a check digit that may be a filler.
        case digitsOrFiller
        /// Letters or the filler: codes, states, nationalities, names.
        case letters
        /// `M`, `F`, `X` or the filler.
        case sex
        /// Any MRZ character: document numbers and optional data.
        case any

        func allows(_ character: UInt8) -> Bool {
            switch self {
            case .digits: return character >= UInt8(ascii: "0") && character <= UInt8(ascii: "9")
            case .digitsOrFiller: return character == UInt8(ascii: "<") || Allowed.digits.allows(character)
            case .letters: return character == UInt8(ascii: "<") || (character >= UInt8(ascii: "A") && character <= UInt8(ascii: "Z"))
            case .sex: return character == UInt8(ascii: "M") || character == UInt8(ascii: "F") || character == UInt8(ascii: "X") || character == UInt8(ascii: "<")
            case .any: return true
            }
        }
    }

    /// The allowed characters of every position, line by line.
    static func allowed(_ format: MRZReading.Format) -> [[Allowed]] {
        func line(_ length: Int, _ runs: [(Range<Int>, Allowed)]) -> [Allowed] {
            var result = [Allowed](repeating: .any, count: length)
            for (range, kind) in runs { for i in range { result[i] = kind } }
            return result
        }
        switch format {
        case .td1:
            return [
                line(30, [(0..<5, .letters), (5..<14, .any), (14..<15, .digitsOrFiller), (15..<30, .any)]),
                line(30, [(0..<6, .digitsOrFiller), (6..<7, .digits), (7..<8, .sex), (8..<15, .digits), (15..<18, .letters), (18..<29, .any), (29..<30, .digits)]),
                line(30, [(0..<30, .letters)]),
            ]
        case .td2:
            return [
                line(36, [(0..<36, .letters)]),
                line(36, [(0..<9, .any), (9..<10, .digitsOrFiller), (10..<13, .letters), (13..<19, .digitsOrFiller), (19..<20, .digits), (20..<21, .sex), (21..<28, .digits), (28..<35, .any), (35..<36, .digits)]),
            ]
        case .td3:
            return [
                line(44, [(0..<44, .letters)]),
                line(44, [(0..<9, .any), (9..<10, .digits), (10..<13, .letters), (13..<19, .digitsOrFiller), (19..<20, .digits), (20..<21, .sex), (21..<28, .digits), (28..<42, .any), (42..<43, .digitsOrFiller), (43..<44, .digits)]),
            ]
        }
    }

    /// The best and second-best allowed characters of one position, from the classifier's
    /// probabilities over `alphabet`: the field type restricts the choice, the scores decide
    /// it (no fixed swap table such as O for 0).
    static func choose(_ probabilities: [Float], alphabet: [UInt8], allowed: Allowed) -> MRZReading.Character {
        var best = -1, second = -1
        for (index, character) in alphabet.enumerated() where allowed.allows(character) {
            if best < 0 || probabilities[index] > probabilities[best] {
                second = best
                best = index
            } else if second < 0 || probabilities[index] > probabilities[second] {
                second = index
            }
        }
        guard best >= 0 else { return MRZReading.Character(best: UInt8(ascii: "<"), confidence: 0, second: UInt8(ascii: "<"), secondConfidence: 0) }
        let secondIndex = second >= 0 ? second : best
        return MRZReading.Character(best: alphabet[best], confidence: probabilities[best], second: alphabet[secondIndex], secondConfidence: second >= 0 ? probabilities[second] : 0)
    }

    /// The 7-3-1 check digit of `characters` (ICAO Doc 9303 Part 3 §4.9), ASCII.
    static func checkDigit<C: Collection>(_ characters: C) -> UInt8 where C.Element == UInt8 {
        let weights = [7, 3, 1]
        var sum = 0
        for (index, character) in characters.enumerated() {
            let value: Int
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(character - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = Int(character - UInt8(ascii: "A")) + 10
            default: value = 0
            }
            sum += value * weights[index % 3]
        }
        return UInt8(ascii: "0") + UInt8(sum % 10)
    }

    /// Every check digit of the zone, computed from the characters read.
    static func checkDigits(format: MRZReading.Format, lines: [[UInt8]]) -> [MRZReading.CheckDigit] {
        guard lines.count == format.lineCount, lines.allSatisfy({ $0.count == format.lineLength }) else { return [] }
        let filler = UInt8(ascii: "<")
        func check(_ field: MRZReading.CheckDigit.Field, _ characters: [UInt8], _ read: UInt8, fillerAllowed: Bool = false) -> MRZReading.CheckDigit {
            let computed = checkDigit(characters)
            let allFillers = characters.allSatisfy { $0 == filler }
            let holds = read == computed || (fillerAllowed && read == filler && allFillers)
            return MRZReading.CheckDigit(field: field, read: read, computed: computed, holds: holds)
        }
        /// A document number in its nine positions, or continued in the optional data
        /// when its check digit position holds a filler (TD1, TD2).
        func documentNumber(line: [UInt8], start: Int, optional: Range<Int>) -> MRZReading.CheckDigit {
            let field = Array(line[start..<(start + 9)])
            let read = line[start + 9]
            guard read == filler else { return check(.documentNumber, field, read) }
            let overflow = Array(line[optional].prefix { $0 != filler })
            guard let last = overflow.last else { return MRZReading.CheckDigit(field: .documentNumber, read: read, computed: checkDigit(field), holds: false) }
            return check(.documentNumber, field + overflow.dropLast(), last)
        }
        let l = lines
        switch format {
        case .td1:
            return [
                documentNumber(line: l[0], start: 5, optional: 15..<30),
                check(.birthDate, Array(l[1][0..<6]), l[1][6]),
                check(.expiryDate, Array(l[1][8..<14]), l[1][14]),
                check(.composite, Array(l[0][5..<30] + l[1][0..<7] + l[1][8..<15] + l[1][18..<29]), l[1][29]),
            ]
        case .td2:
            return [
                documentNumber(line: l[1], start: 0, optional: 28..<35),
                check(.birthDate, Array(l[1][13..<19]), l[1][19]),
                check(.expiryDate, Array(l[1][21..<27]), l[1][27]),
                check(.composite, Array(l[1][0..<10] + l[1][13..<20] + l[1][21..<35]), l[1][35]),
            ]
        case .td3:
            return [
                check(.documentNumber, Array(l[1][0..<9]), l[1][9]),
                check(.birthDate, Array(l[1][13..<19]), l[1][19]),
                check(.expiryDate, Array(l[1][21..<27]), l[1][27]),
                check(.optionalData, Array(l[1][28..<42]), l[1][42], fillerAllowed: true),
                check(.composite, Array(l[1][0..<10] + l[1][13..<20] + l[1][21..<43]), l[1][43]),
            ]
        }
    }
}
