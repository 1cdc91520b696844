/// The ICAO 9303 layouts as the reader needs them: which characters each position may
/// hold (field-type correction) and where the check digits are.
enum MRZLayout {
    /// The characters a position may hold.
    enum Allowed: Sendable, Equatable {
        /// Digits: check digits and dates of expiry.
        case digits
        /// Digits up to `maximum` (ASCII): the tens of a month (1) or a day (3).
        case digitsUpTo(UInt8)
        /// Digits or the filler: a check digit that may be a filler.
        case digitsOrFiller
        /// A date of birth's digit up to `maximum`, or the filler of an unknown part.
        case digitsOrFillerUpTo(UInt8)
        /// Letters or the filler: codes, states, nationalities, names.
        case letters
        /// `M`, `F`, `X` or the filler.
        case sex
        /// Any MRZ character: document numbers and optional data.
        case any

        func allows(_ character: UInt8) -> Bool {
            let filler = UInt8(ascii: "<")
            switch self {
            case .digits: return character >= UInt8(ascii: "0") && character <= UInt8(ascii: "9")
            case .digitsUpTo(let maximum): return character >= UInt8(ascii: "0") && character <= maximum
            case .digitsOrFiller: return character == filler || Allowed.digits.allows(character)
            case .digitsOrFillerUpTo(let maximum): return character == filler || Allowed.digitsUpTo(maximum).allows(character)
            case .letters: return character == filler || (character >= UInt8(ascii: "A") && character <= UInt8(ascii: "Z"))
            case .sex: return character == UInt8(ascii: "M") || character == UInt8(ascii: "F") || character == UInt8(ascii: "X") || character == filler
            case .any: return true
            }
        }
    }

    /// A date's six positions, YYMMDD: months' tens are 0 or 1, days' tens 0 to 3. A date
    /// of birth may have unknown parts, each a pair of fillers (ICAO Doc 9303 Part 3 §4.6).
    static func date(unknownParts: Bool) -> [Allowed] {
        let one = UInt8(ascii: "1"), three = UInt8(ascii: "3")
        return unknownParts
            ? [.digitsOrFiller, .digitsOrFiller, .digitsOrFillerUpTo(one), .digitsOrFiller, .digitsOrFillerUpTo(three), .digitsOrFiller]
            : [.digits, .digits, .digitsUpTo(one), .digits, .digitsUpTo(three), .digits]
    }

    /// The allowed characters of every position, line by line.
    static func allowed(_ format: MRZReading.Format) -> [[Allowed]] {
        func line(_ length: Int, _ runs: [(Range<Int>, Allowed)], dates: [(Int, Bool)]) -> [Allowed] {
            var result = [Allowed](repeating: .any, count: length)
            for (range, kind) in runs { for i in range { result[i] = kind } }
            for (start, unknownParts) in dates { result.replaceSubrange(start..<(start + 6), with: date(unknownParts: unknownParts)) }
            return result
        }
        switch format {
        case .td1:
            return [
                line(30, [(0..<5, .letters), (5..<14, .any), (14..<15, .digitsOrFiller), (15..<30, .any)], dates: []),
                line(30, [(6..<7, .digits), (7..<8, .sex), (14..<15, .digits), (15..<18, .letters), (18..<29, .any), (29..<30, .digits)], dates: [(0, true), (8, false)]),
                line(30, [(0..<30, .letters)], dates: []),
            ]
        case .td2:
            return [
                line(36, [(0..<36, .letters)], dates: []),
                line(36, [(0..<9, .any), (9..<10, .digitsOrFiller), (10..<13, .letters), (19..<20, .digits), (20..<21, .sex), (27..<28, .digits), (28..<35, .any), (35..<36, .digits)], dates: [(13, true), (21, false)]),
            ]
        case .td3:
            return [
                line(44, [(0..<44, .letters)], dates: []),
                line(44, [(0..<9, .any), (9..<10, .digits), (10..<13, .letters), (19..<20, .digits), (20..<21, .sex), (27..<28, .digits), (28..<42, .any), (42..<43, .digitsOrFiller), (43..<44, .digits)], dates: [(13, true), (21, false)]),
            ]
        }
    }

    /// Where a date of birth starts, as (line, index): its parts are decided in pairs.
    static func birthDate(_ format: MRZReading.Format) -> (line: Int, start: Int) {
        format == .td1 ? (1, 0) : (1, 13)
    }

    /// The characters of every position from the classifier's probabilities (`[line][position]`
    /// over `alphabet`): each position restricted to its field type; in a date of birth each
    /// two-digit part is either two digits or two fillers, whichever is more probable jointly
    /// (a single filler for a 0 would not change a check digit).
    static func decode(_ probabilities: [[[Float]]], format: MRZReading.Format, alphabet: [UInt8]) -> [[MRZReading.Character]] {
        let allowed = allowed(format)
        var lines = zip(probabilities, allowed).map { scores, kinds in zip(scores, kinds).map { choose($0, alphabet: alphabet, allowed: $1) } }
        guard let filler = alphabet.firstIndex(of: UInt8(ascii: "<")) else { return lines }
        let (line, start) = birthDate(format)
        for part in stride(from: start, to: start + 6, by: 2) {
            let pair = [part, part + 1]
            let digits = pair.map { choose(probabilities[line][$0], alphabet: alphabet, allowed: .digits) }
            let digitScore = zip(pair, digits).map { position, character in
                probabilities[line][position][alphabet.firstIndex(of: character.best) ?? filler]
            }.reduce(1, *)
            let fillerScore = pair.map { probabilities[line][$0][filler] }.reduce(1, *)
            if fillerScore > digitScore {
                for position in pair { lines[line][position] = choose(probabilities[line][position], alphabet: alphabet, allowed: .digitsOrFiller, forcing: filler) }
            } else {
                for position in pair {
                    let kind = allowed[line][position]
                    let maximum: UInt8 = if case .digitsOrFillerUpTo(let m) = kind { m } else { UInt8(ascii: "9") }
                    lines[line][position] = choose(probabilities[line][position], alphabet: alphabet, allowed: .digitsUpTo(maximum), confidenceOver: kind)
                }
            }
        }
        return lines
    }

    /// The best and second-best allowed characters of one position, from the classifier's
    /// probabilities over `alphabet`: the field type restricts the choice, the scores decide
    /// it (no fixed swap table such as O for 0). The confidences are the probabilities given
    /// the field type: renormalised over the characters the position allows.
    /// - Parameters:
    ///   - forcing: the index of the character to take whatever the scores (a pair decided jointly).
    ///   - confidenceOver: the characters the confidence is renormalised over, when not `allowed`.
    static func choose(
        _ probabilities: [Float], alphabet: [UInt8], allowed: Allowed, forcing: Int? = nil, confidenceOver: Allowed? = nil
    ) -> MRZReading.Character {
        var best = -1, second = -1
        var mass: Float = 0
        let over = confidenceOver ?? allowed
        for (index, character) in alphabet.enumerated() where over.allows(character) { mass += probabilities[index] }
        for (index, character) in alphabet.enumerated() where allowed.allows(character) {
            if best < 0 || probabilities[index] > probabilities[best] {
                second = best
                best = index
            } else if second < 0 || probabilities[index] > probabilities[second] {
                second = index
            }
        }
        if let forcing, forcing != best {
            second = best
            best = forcing
        }
        guard best >= 0, mass > 0 else { return MRZReading.Character(best: UInt8(ascii: "<"), confidence: 0, second: UInt8(ascii: "<"), secondConfidence: 0) }
        let secondIndex = second >= 0 ? second : best
        return MRZReading.Character(
            best: alphabet[best], confidence: probabilities[best] / mass,
            second: alphabet[secondIndex], secondConfidence: second >= 0 ? probabilities[second] / mass : 0)
    }

    /// The positions of the chip key's characters (document number with its overflow and
    /// check digit, dates of birth and expiry with theirs), as (line, index).
    static func keyPositions(format: MRZReading.Format, lines: [[UInt8]]) -> [(Int, Int)] {
        guard lines.count == format.lineCount, lines.allSatisfy({ $0.count == format.lineLength }) else { return [] }
        func number(line: Int, start: Int, optional: Range<Int>) -> [(Int, Int)] {
            var positions = (start..<(start + 10)).map { (line, $0) }
            if lines[line][start + 9] == UInt8(ascii: "<") {
                let overflow = lines[line][optional].prefix { $0 != UInt8(ascii: "<") }.count
                positions += (optional.lowerBound..<(optional.lowerBound + overflow)).map { (line, $0) }
            }
            return positions
        }
        switch format {
        case .td1:
            return number(line: 0, start: 5, optional: 15..<30) + (0..<7).map { (1, $0) } + (8..<15).map { (1, $0) }
        case .td2:
            return number(line: 1, start: 0, optional: 28..<35) + (13..<20).map { (1, $0) } + (21..<28).map { (1, $0) }
        case .td3:
            return (0..<10).map { (1, $0) } + (13..<20).map { (1, $0) } + (21..<28).map { (1, $0) }
        }
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
