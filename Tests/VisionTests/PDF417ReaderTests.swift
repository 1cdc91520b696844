import Imaging
import KioskTestKit
import Testing
import Vision

/// The PDF417 reader on the generated held-out frames (stations, colour schemes and holders
/// never used to choose its settings): the station's way (the finder's card, its corrected
/// crop) must decode most backs, never decode wrong bytes, and find nothing on fronts.
@Suite struct PDF417ReaderTests {
    /// The least share of held-out backs the station's reading must decode. Fixed from the
    /// train split before the held-out split was run: 101 of 126 train backs (80%) decoded on
    /// crops at the true corners; the finder's corners may lose a few more.
    static let minimumHeldOutRate = 0.70

    @Test(.enabled(if: BarcodeDataSet() != nil, "needs \(BarcodeDataSet.missing)"))
    func theHeldOutBacksDecodeAndNothingDecodesWrong() throws {
        try Self.meetsTheRequirements(split: .heldout)
    }

    /// The same requirements on the sealed split (new seeds, made after the held-out split
    /// had been measured three times; measured once, with no change to the reader after).
    @Test(.enabled(if: BarcodeDataSet() != nil, "needs \(BarcodeDataSet.missing)"))
    func theSealedBacksDecodeAndNothingDecodesWrong() throws {
        try Self.meetsTheRequirements(split: .sealed)
    }

    static func meetsTheRequirements(split: BarcodeDataSet.Split) throws {
        let data = try #require(BarcodeDataSet())
        let evaluation = try BarcodeEvaluation.run(data, split: split)
        let ours = evaluation.pipeline, baseline = evaluation.wholeFrame
        print("\(split) PDF417: station \(ours.decoded)/\(ours.backs), ZXing on the whole frame \(baseline.decoded)/\(baseline.backs)")
        #expect(ours.backs > 100 && ours.fronts > 5)
        #expect(ours.rate >= Self.minimumHeldOutRate)
        // Straightening the card is what the station adds: it must beat the library on the whole frame.
        #expect(ours.decoded > baseline.decoded)
        #expect(ours.wrong == 0 && baseline.wrong == 0)
        #expect(ours.phantom == 0)
    }

    @Test func anEmptyImageIsAnInvalidArgumentAndABlankOneHoldsNoSymbol() throws {
        #expect(throws: VisionError.self) { try PDF417Reader().read(LumaImage()) }
        do {
            _ = try PDF417Reader().read(LumaImage())
        } catch {
            #expect(error.kind == .invalidArgument && error.call == "idkzx_read_pdf417")
        }
        #expect(try PDF417Reader().read(LumaImage(width: 640, height: 400, pixels: [UInt8](repeating: 200, count: 640 * 400))) == nil)
        #expect(PDF417Reader.libraryVersion.hasPrefix("1."))
    }
}
