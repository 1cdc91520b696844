import Foundation
import Imaging
import KioskTestKit
import Testing
@testable import Vision

/// The reader's layout rules (field types, check digits) on known zones, and its answers
/// on crops that are upside down, have no MRZ, or are not documents at all.
@Suite("MRZ reader")
struct MRZReaderTests {
    /// ICAO Doc 9303's specimens (fictional holder), Part 4 (TD3) and Part 5 (TD1).
    static let td3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    static let td1 = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]

    static func reading(_ lines: [String], format: MRZReading.Format) -> MRZReading {
        MRZReading(format: format, lines: lines.map { line in
            line.utf8.map { MRZReading.Character(best: $0, confidence: 0.99, second: UInt8(ascii: "<"), secondConfidence: 0.01) }
        }, upsideDown: false)
    }

    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<".utf8)

    /// Probabilities where `first` scores 0.6 and `second` 0.3.
    static func scores(_ first: Character, _ second: Character) -> [Float] {
        alphabet.map { $0 == first.asciiValue ? 0.6 : $0 == second.asciiValue ? 0.3 : 0.1 / 35 }
    }

    @Test func fieldTypeTakesTheBestAllowedClassFromTheScores() {
        // The classifier prefers O, then 0: a digit field takes 0, a name O, a document number O.
        let scores = Self.scores("O", "0")
        #expect(MRZLayout.choose(scores, alphabet: Self.alphabet, allowed: .digits).best == UInt8(ascii: "0"))
        // Its confidence is the probability given the field type: renormalised over the digits.
        #expect(abs(MRZLayout.choose(scores, alphabet: Self.alphabet, allowed: .digits).confidence - 0.3 / (0.3 + 9 * 0.1 / 35)) < 1e-5)
        #expect(MRZLayout.choose(scores, alphabet: Self.alphabet, allowed: .letters).best == UInt8(ascii: "O"))
        let any = MRZLayout.choose(scores, alphabet: Self.alphabet, allowed: .any)
        #expect(any.best == UInt8(ascii: "O") && any.second == UInt8(ascii: "0"))
        // From the scores, not a swap table: with 8 second, a digit field takes 8, not 0.
        #expect(MRZLayout.choose(Self.scores("O", "8"), alphabet: Self.alphabet, allowed: .digits).best == UInt8(ascii: "8"))
        #expect(MRZLayout.choose(Self.scores("1", "I"), alphabet: Self.alphabet, allowed: .letters).best == UInt8(ascii: "I"))
        #expect(MRZLayout.choose(Self.scores("0", "M"), alphabet: Self.alphabet, allowed: .sex).best == UInt8(ascii: "M"))
    }

    /// Probabilities for every position of `lines`: its character 0.9, the rest evenly.
    static func confident(_ lines: [String]) -> [[[Float]]] {
        lines.map { line in line.utf8.map { c in alphabet.map { $0 == c ? 0.9 : 0.1 / 36 } } }
    }

    static func set(_ scores: inout [[[Float]]], line: Int, position: Int, _ pairs: [(Character, Float)]) {
        let rest = (1 - pairs.map(\.1).reduce(0, +)) / Float(alphabet.count - pairs.count)
        scores[line][position] = alphabet.map { c in pairs.first { $0.0.asciiValue == c }?.1 ?? rest }
    }

    @Test func datesTakeTheirPartsWhole() {
        // The specimen's date of birth 740812 is at line 2, positions 14-19.
        var scores = Self.confident(Self.td3)
        // A filler more probable than the 0 of the month: one filler alone is no date part.
        Self.set(&scores, line: 1, position: 15, [("<", 0.6), ("0", 0.35)])
        // A 7 more probable than the 0 of a month's tens: months' tens are 0 or 1.
        var tens = Self.confident(Self.td3)
        Self.set(&tens, line: 1, position: 15, [("7", 0.6), ("0", 0.3)])
        // Two fillers for the day: an unknown day.
        var unknown = Self.confident(Self.td3)
        Self.set(&unknown, line: 1, position: 17, [("<", 0.9)])
        Self.set(&unknown, line: 1, position: 18, [("<", 0.8), ("2", 0.1)])
        func birthDate(_ scores: [[[Float]]]) -> String {
            String(decoding: MRZLayout.decode(scores, format: .td3, alphabet: Self.alphabet)[1][13..<19].map(\.best), as: UTF8.self)
        }
        #expect(birthDate(scores) == "740812")
        #expect(birthDate(tens) == "740812")
        #expect(birthDate(unknown) == "7408<<")
        // The date of expiry has no unknown parts: fillers there are read as the likeliest digits.
        var expiry = Self.confident(Self.td3)
        Self.set(&expiry, line: 1, position: 25, [("<", 0.9), ("1", 0.05)])
        #expect(MRZLayout.decode(expiry, format: .td3, alphabet: Self.alphabet)[1][25].best == UInt8(ascii: "1"))
    }

    @Test func layoutsRestrictDatesAndCheckDigitsToDigitsAndNamesToLetters() {
        let td3 = MRZLayout.allowed(.td3)
        let specimen = Self.td3.map { Array($0.utf8) }
        for (line, kinds) in td3.enumerated() {
            #expect(kinds.count == 44)
            for (position, kind) in kinds.enumerated() { #expect(kind.allows(specimen[line][position]), "line \(line + 1) position \(position + 1)") }
        }
        #expect(td3[1][13..<20].allSatisfy { !$0.allows(UInt8(ascii: "O")) })
        #expect(td3[0][5..<44].allSatisfy { !$0.allows(UInt8(ascii: "0")) })
        let td1 = Self.td1.map { Array($0.utf8) }
        for (line, kinds) in MRZLayout.allowed(.td1).enumerated() {
            for (position, kind) in kinds.enumerated() { #expect(kind.allows(td1[line][position])) }
        }
        #expect(MRZLayout.allowed(.td2).map(\.count) == [36, 36])
    }

    @Test func checkDigitsOfTheSpecimensHold() {
        let td3 = Self.reading(Self.td3, format: .td3)
        #expect(td3.checkDigits.map(\.field) == [.documentNumber, .birthDate, .expiryDate, .optionalData, .composite])
        #expect(td3.allCheckDigitsHold)
        let td1 = Self.reading(Self.td1, format: .td1)
        #expect(td1.checkDigits.map(\.field) == [.documentNumber, .birthDate, .expiryDate, .composite])
        #expect(td1.allCheckDigitsHold)
    }

    @Test func aMisreadCharacterFailsItsCheckDigits() {
        var lines = Self.td3
        lines[1] = "L898902O36" + lines[1].dropFirst(10)  // C read as O in the document number
        let reading = Self.reading(lines, format: .td3)
        #expect(!reading.allCheckDigitsHold)
        #expect(reading.checkDigits.filter { !$0.holds }.map(\.field) == [.documentNumber, .composite])
        let number = reading.checkDigits[0]
        #expect(number.read == UInt8(ascii: "6") && number.computed == UInt8(ascii: "2"))
        // A document number overflowing into the optional data (TD1) is checked there.
        let overflow = ["I<UTOD23145890<7349<<<<<<<<<<<", "3407127M9507122UTO<<<<<<<<<<<2", "STEVENSON<<PETER<JOHN<<<<<<<<<"]
        let checks = Self.reading(overflow, format: .td1).checkDigits
        #expect(checks[0].field == .documentNumber && checks[0].holds)
    }

    @Test func textIsRedactedInDescriptions() {
        let reading = Self.reading(Self.td3, format: .td3)
        #expect(!String(describing: reading).contains("ERIKSSON"))
        #expect(!String(reflecting: reading).contains("L898902C3"))
    }

    // MARK: crops

    @Test(.enabled(if: VisionCrops.hasModel, "no MRZ model: run `make vision-models`"), .enabled(if: VisionCrops.hasCrops("dev"), "no generated crops: run `/usr/bin/python3 scripts/vision-data/generate.py`"))
    func upsideDownCropIsReadTurnedAndSaysSo() throws {
        let reader = MRZReader(model: try #require(VisionCrops.model))
        var tried = 0
        for crop in try VisionCrops.crops("dev") where crop.mrz != nil {
            guard let upright = reader.read(crop.image), upright.text == crop.mrz else { continue }
            #expect(!upright.upsideDown)
            let turned = LumaImage(width: crop.image.width, height: crop.image.height, pixels: crop.image.pixels.reversed())
            let reading = try #require(reader.read(turned), "\(crop.name) turned")
            #expect(reading.upsideDown, "\(crop.name)")
            #expect(reading.text == crop.mrz, "\(crop.name)")
            tried += 1
            if tried == 6 { break }
        }
        #expect(tried == 6)
    }

    /// `crop` with a security print over its lower half: families of thin wavy lines `depth`
    /// luma levels darker, as many documents print under their zone (no clear zone).
    static func withSecurityPrint(_ crop: LumaImage, depth: Double) -> LumaImage {
        var pixels = crop.pixels
        for y in (crop.height / 2)..<crop.height {
            for x in 0..<crop.width {
                let (fx, fy) = (Double(x), Double(y))
                let a = (fy + 7 * sin(fx / 31)).truncatingRemainder(dividingBy: 11)
                let b = (fy - 0.4 * fx + 5 * sin(fx / 17)).truncatingRemainder(dividingBy: 17)
                let on = abs(a) < 1.2 || abs(b) < 1.0
                if on { pixels[y * crop.width + x] = UInt8(max(0, Double(pixels[y * crop.width + x]) - depth)) }
            }
        }
        return LumaImage(width: crop.width, height: crop.height, pixels: pixels)
    }

    @Test(.enabled(if: VisionCrops.hasModel, "no MRZ model: run `make vision-models`"), .enabled(if: VisionCrops.hasCrops("dev"), "no generated crops: run `/usr/bin/python3 scripts/vision-data/generate.py`"))
    func aZoneOverASecurityPrintIsRead() throws {
        // Lines of print under the characters, up to 70 levels darker than the paper: ink for
        // a threshold a fixed offset below the local mean, not for one measured against the
        // zone's darkest ink (the MRZ's).
        let reader = MRZReader(model: try #require(VisionCrops.model))
        var read = 0, tried = 0
        for crop in try VisionCrops.crops("dev") where crop.mrz != nil {
            guard reader.read(crop.image)?.text == crop.mrz else { continue }  // read without the print
            for depth in [40.0, 70.0] {
                tried += 1
                let reading = reader.read(Self.withSecurityPrint(crop.image, depth: depth))
                // Read right, or (a character misread) refused by its check digits: never a
                // wrong zone that passes them.
                #expect(reading?.text == crop.mrz || reading?.allCheckDigitsHold != true, "\(crop.name) under print \(depth) levels darker")
                if reading?.text == crop.mrz { read += 1 }
            }
            if tried >= 16 { break }
        }
        // Before the threshold measured against the zone's ink, about half were read.
        #expect(tried == 16 && read >= 14, "\(read) of \(tried) read")
    }

    @Test(.enabled(if: VisionCrops.hasModel, "no MRZ model: run `make vision-models`"), .enabled(if: VisionCrops.hasCrops("dev"), "no generated crops: run `/usr/bin/python3 scripts/vision-data/generate.py`"))
    func cardFrontHasNoMRZ() throws {
        let reader = MRZReader(model: try #require(VisionCrops.model))
        let fronts = try VisionCrops.crops("dev").filter { $0.mrz == nil }
        try #require(!fronts.isEmpty, "the dev split has no crop without an MRZ")
        for crop in fronts {
            let reading = reader.read(crop.image)
            #expect(reading == nil, "\(crop.name): \(crop.side)")
        }
    }

    @Test(.enabled(if: VisionCrops.hasModel, "no MRZ model: run `make vision-models`"))
    func blankAndNoiseCropsHaveNoMRZ() throws {
        let reader = MRZReader(model: try #require(VisionCrops.model))
        // Noise from a linear congruential generator (Numerical Recipes' constants): deterministic.
        var state: UInt32 = 11
        for (width, height) in [(856, 540), (1250, 880), (40, 30), (1, 1), (0, 0)] {
            let count = width * height
            #expect(reader.read(LumaImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: count))) == nil)
            #expect(reader.read(LumaImage(width: width, height: height, pixels: [UInt8](repeating: 255, count: count))) == nil)
            let noise = LumaImage(width: width, height: height, pixels: (0..<count).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            })
            #expect(reader.read(noise) == nil)
        }
        // Stripes at the MRZ's place, no characters: lines, perhaps, but no zone that checks.
        let stripes = LumaImage(width: 1250, height: 880, pixels: (0..<(1250 * 880)).map { i in (i / 1250 / 20) % 2 == 0 ? 30 : 220 })
        #expect(reader.read(stripes)?.allCheckDigitsHold != true)
    }
}
