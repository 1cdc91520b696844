@testable import Capture
import Imaging
import KioskTestKit
import MRTD
import ScanFlow
import Testing
import Vision

/// The frame agreement that turns MRZ reads into chip keys, fed reads and asked for keys.
@Suite struct MRZConsensusTests {
    /// A fictional holder's TD3 zone, all check digits computed.
    static func zone(number: String = "L898902C3", birth: String = "740812", surname: String = "ERIKSSON") -> [String] {
        MRZ.composeTD3(
            issuingState: "UTO", primaryIdentifier: surname, secondaryIdentifier: "ANNA MARIA", documentNumber: number,
            nationality: "UTO", birthDate: birth, sex: "F", expiryDate: "120415", optionalData: "ZE184226B")
    }

    /// A read of `lines` (TD1 for three lines, TD2 for 36 characters, else TD3).
    static func reading(_ lines: [String], confidence: Float = 0.95) -> MRZReading {
        let format: MRZReading.Format = lines.count == 3 ? .td1 : lines.first?.count == 36 ? .td2 : .td3
        return MRZReading(format: format, lines: lines.map { line in
            line.utf8.map { MRZReading.Character(best: $0, confidence: confidence, second: UInt8(ascii: "<"), secondConfidence: 0) }
        }, upsideDown: false)
    }

    static func key(_ lines: [String]) -> ChipAccessKey {
        let mrz = try! MRZ(lines.joined(separator: "\n"))
        return .mrz(documentNumber: mrz.documentNumber, dateOfBirth: mrz.birthDate, dateOfExpiry: mrz.expiryDate)
    }

    @Test func twoAgreeingFramesAccept() {
        var consensus = MRZConsensus()
        let afterOne = consensus.add(Self.reading(Self.zone()))
        #expect(!afterOne)
        #expect(consensus.nextKey == nil)
        let afterTwo = consensus.add(Self.reading(Self.zone()))
        #expect(afterTwo)
        #expect(consensus.nextKey == Self.key(Self.zone()))
        // A third agreeing frame adds agreement, not a new acceptance.
        let afterThree = consensus.add(Self.reading(Self.zone()))
        #expect(!afterThree)
        #expect(consensus.accepted.map(\.agreement) == [3])
    }

    @Test func aVisasZoneMakesNoKey() {
        // A visa sticker on a passport's facing page (document code V, ICAO 9303 Part 7): its
        // zone may pass every check digit read as a TD3, but it is not the passport's.
        let visa = MRZ.composeTD3(
            documentCode: "V", issuingState: "UTO", primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA",
            documentNumber: "V12345678", nationality: "UTO", birthDate: "740812", sex: "F", expiryDate: "270415")
        var consensus = MRZConsensus()
        consensus.add(Self.reading(visa))
        consensus.add(Self.reading(visa))
        #expect(Self.reading(visa).allCheckDigitsHold)
        #expect(consensus.accepted.isEmpty && consensus.nextKey == nil)
        consensus.add(Self.reading(Self.zone()))
        consensus.add(Self.reading(Self.zone()))
        #expect(consensus.keys == [Self.key(Self.zone())])
    }

    @Test func disagreeingFramesDoNotAccept() {
        var consensus = MRZConsensus()
        // Two different zones, each valid: no two frames agree on every line.
        consensus.add(Self.reading(Self.zone()))
        consensus.add(Self.reading(Self.zone(number: "L898902C4")))
        consensus.add(nil)
        #expect(consensus.accepted.isEmpty)
        #expect(consensus.nextKey == nil)
    }

    @Test func failedCheckDigitsNeverCount() {
        var consensus = MRZConsensus()
        var broken = Self.zone()
        broken[1] = "L898902O3" + broken[1].dropFirst(9)  // C read as O; its check digit fails
        consensus.add(Self.reading(broken))
        consensus.add(Self.reading(broken))
        #expect(consensus.accepted.isEmpty)
        // Agreeing frames of a zone whose check digits hold but that MRTD refuses (no expiry date) neither.
        let badDate = MRZ.composeTD3(
            issuingState: "UTO", primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA", documentNumber: "L898902C3",
            nationality: "UTO", birthDate: "740812", sex: "F", expiryDate: "<<<<<<")
        consensus.add(Self.reading(badDate))
        consensus.add(Self.reading(badDate))
        #expect(consensus.accepted.isEmpty)
    }

    @Test func unsureReadsDoNotCount() {
        var consensus = MRZConsensus()
        // Every check digit holds, but the recogniser was unsure of the whole read...
        consensus.add(Self.reading(Self.zone(), confidence: 0.85))
        consensus.add(Self.reading(Self.zone(), confidence: 0.85))
        #expect(consensus.accepted.isEmpty)
        // ...or of one character of the document number.
        var unsure = Self.reading(Self.zone())
        unsure.lines[1][3].confidence = 0.3
        consensus.add(unsure)
        consensus.add(unsure)
        #expect(consensus.accepted.isEmpty)
        // The same character unsure in the name does not touch the key.
        var name = Self.reading(Self.zone())
        name.lines[0][8].confidence = 0.3
        consensus.add(name)
        consensus.add(name)
        #expect(consensus.nextKey == Self.key(Self.zone()))
    }

    @Test func candidatesAreOrderedByAgreementThenConfidenceAndRefusedKeysAreSkipped() {
        var consensus = MRZConsensus()
        let first = Self.zone(), second = Self.zone(number: "L898902C4"), third = Self.zone(number: "X12345678")
        consensus.add(Self.reading(second, confidence: 0.99))
        consensus.add(Self.reading(second, confidence: 0.99))
        for _ in 0..<3 { consensus.add(Self.reading(first, confidence: 0.92)) }
        consensus.add(Self.reading(third, confidence: 0.9))
        consensus.add(Self.reading(third, confidence: 0.9))
        #expect(consensus.accepted.map(\.lines) == [first, second, third])
        #expect(consensus.nextKey == Self.key(first))
        consensus.refuse(Self.key(first))
        #expect(consensus.nextKey == Self.key(second))
        consensus.refuse(Self.key(second))
        #expect(consensus.nextKey == Self.key(third))
        consensus.refuse(Self.key(third))
        #expect(consensus.nextKey == nil)
        consensus.reset()
        #expect(consensus.accepted.isEmpty)
    }

    @Test func zonesDifferingOnlyInTheNameGiveOneKeyToTry() {
        var consensus = MRZConsensus()
        let a = Self.zone(), b = Self.zone(surname: "ERIKSON")
        for lines in [a, a, b, b] { consensus.add(Self.reading(lines)) }
        #expect(consensus.accepted.count == 2)
        consensus.refuse(Self.key(a))
        #expect(consensus.nextKey == nil)
    }

    /// `lines` read with a second guess of `second` at `confidence` at each of `positions` of
    /// the second line.
    static func reading(_ lines: [String], doubting positions: [Int], second: Character, confidence: Float) -> MRZReading {
        var reading = Self.reading(lines)
        for position in positions {
            reading.lines[1][position].second = second.asciiValue!
            reading.lines[1][position].secondConfidence = confidence
        }
        return reading
    }

    @Test func aReadTheCheckDigitsCannotTellFromItsSecondGuessIsNoCandidate() throws {
        // The document number C0X012345 misread as COXO12345: O (24) for 0 at weights 3 and 7,
        // 72 + 168 = 240, so the document number's check digit and the composite hold for both.
        let truth = Self.zone(number: "C0X012345")
        var misread = truth
        misread[1] = "COXO12345" + truth[1].dropFirst(9)
        let reading = Self.reading(misread, doubting: [1, 3], second: "0", confidence: 0.2)
        #expect(reading.allCheckDigitsHold)
        #expect(reading.keyIsAmbiguous(secondConfidence: 0.05))
        var consensus = MRZConsensus.oneFrame
        let taken = consensus.add(reading)
        #expect(!taken)
        #expect(consensus.nextKey == nil)
        // The same read with the classifier sure of both Os (no second guess near them) is taken:
        // the rule refuses doubt the check digits cannot settle, not a kind of character.
        let sure = consensus.add(Self.reading(misread, doubting: [1, 3], second: "0", confidence: 0.01))
        #expect(sure)
        // One doubtful character alone always changes the digit: the read is taken.
        var single = MRZConsensus.oneFrame
        let one = single.add(Self.reading(truth, doubting: [1], second: "O", confidence: 0.3))
        #expect(one)
        #expect(single.nextKey == Self.key(truth))
        // So does one doubtful digit of a date (the date of birth's first).
        #expect(!Self.reading(truth, doubting: [13], second: "3", confidence: 0.4).keyIsAmbiguous(secondConfidence: 0.05))
    }
}

/// The consensus fed by the real reader: each dev crop read as two frames (the crop, and
/// the crop moved by a few pixels with other noise), as a held document gives them.
@Suite struct MRZConsensusOnCropsTests {
    /// The crop moved by (dx, dy) pixels with deterministic noise of ±`noise` levels.
    static func otherFrame(_ image: LumaImage, dx: Int, dy: Int, noise: Int, seed: UInt32) -> LumaImage {
        var state = seed
        var pixels = [UInt8](repeating: 200, count: image.pixels.count)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let sx = min(max(x - dx, 0), image.width - 1), sy = min(max(y - dy, 0), image.height - 1)
                state = state &* 1_664_525 &+ 1_013_904_223
                let jitter = Int(state >> 24) % (2 * noise + 1) - noise
                pixels[y * image.width + x] = UInt8(clamping: Int(image[sx, sy]) + jitter)
            }
        }
        return LumaImage(width: image.width, height: image.height, pixels: pixels)
    }

    @Test(.enabled(if: VisionCrops.hasModel, "no MRZ model: run `make vision-models`"),
          .enabled(if: VisionCrops.hasCrops("dev"), "no generated crops: run `/usr/bin/python3 scripts/vision-data/generate.py`"))
    func noWrongKeyIsAccepted() throws {
        let reader = MRZReader(model: try #require(VisionCrops.model))
        var accepted = 0, withMRZ = 0
        for (index, crop) in try VisionCrops.crops("dev").enumerated() {
            var consensus = MRZConsensus()
            consensus.add(reader.read(crop.image))
            consensus.add(reader.read(Self.otherFrame(crop.image, dx: index % 5 - 2, dy: index % 3 - 1, noise: 6, seed: UInt32(index))))
            guard let truth = crop.mrz else {
                #expect(consensus.nextKey == nil, "\(crop.name): a key from a crop without an MRZ")
                continue
            }
            withMRZ += 1
            guard let key = consensus.nextKey else { continue }
            accepted += 1
            #expect(key == MRZConsensusTests.key(truth), "\(crop.name): a wrong key was accepted")
        }
        // Measured: every dev zone but one (a misread in the optional data, whose check digit fails).
        #expect(Double(accepted) >= 0.95 * Double(withMRZ))
    }
}
