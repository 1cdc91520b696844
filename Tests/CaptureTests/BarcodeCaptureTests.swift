@testable import Capture
import Foundation
import KioskTestKit
import ScanFlow
import Testing
import Vision

/// `barcode` mode (seeds 000, 002): the front of a card is taken when ready; its back only
/// once its PDF417 decoded to an AAMVA record, which goes with the image. A record without
/// the address is Y, the front still shown when the barcode timeout is over is Z, a back
/// whose barcode never decodes gives up for the fallback (manual) mode.
@Suite struct BarcodeCaptureTests {
    typealias D = DocumentCaptureTests
    /// The example of the AAMVA DL/ID Card Design Standard (2020), Annex D.
    static let example = Array(
        ("@\n\u{1E}\rANSI 636000100002DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\nDDGN\nDCUJR\n"
            + "DCAD\nDCBK\nDCDPH\nDBD06062019\nDBB06061986\nDBA12102024\nDBC1\nDAU068 in\nDAYBRO\nDAG2300 WEST BROAD STREET\n"
            + "DAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\nDCK123456789\nDDAF\nDDB06062018\n"
            + "DDC06062020\nDDD1\rZVZVA01\r").utf8)
    /// The same record without its address elements (DAG, DAI, DAJ, DAK).
    static var withoutAddress: [UInt8] {
        let text = String(decoding: example, as: UTF8.self)
            .replacingOccurrences(of: "DAG2300 WEST BROAD STREET\n", with: "").replacingOccurrences(of: "DAIRICHMOND\n", with: "")
            .replacingOccurrences(of: "DAJVA\n", with: "").replacingOccurrences(of: "DAK232690000  \n", with: "")
        return Array(text.utf8)
    }

    static let gate = DocumentGate.Settings(guidance: DocumentGuidance.Settings(), readyFrames: 3, barcodeTimeout: .seconds(6))

    func capture() -> DocumentCapture {
        DocumentCapture(
            request: CaptureRequest(mode: .barcode, part: .multipart, trigger: CaptureTrigger(), useFlash: false), gate: Self.gate,
            sidePause: .milliseconds(1500))
    }

    /// A card seen, showing `face` (thumbnail luma) and the barcode decoded from `bytes`.
    static func card(face: UInt8, barcode bytes: [UInt8]? = nil) -> DocumentFrame {
        var frame = D.frame(D.seen(documentClass: .td1), thumbnail: face)
        if let bytes {
            frame.barcodeLookedFor = true
            frame.barcode = BarcodeRead(PDF417Symbol(bytes: bytes, corners: []))
        }
        return frame
    }

    /// Feeds frames `period` apart until one is taken or given up; nil after `limit`.
    func run(_ capture: inout DocumentCapture, from start: Duration, measure: DocumentFrame, limit: Int = 200) -> (FrameAction, Duration)? {
        for n in 0..<limit {
            let now = start + D.period * n
            var action = capture.frame(at: now, shutter: false, detectionPaused: false)
            if action == .measure { action = capture.measured(measure) }
            switch action {
            case .take, .giveUp: return (action, now)
            default: continue
            }
        }
        return nil
    }

    func frontTaken() throws -> (DocumentCapture, Duration) {
        var capture = capture()
        #expect(!capture.wantsBarcode)
        let (action, at) = try #require(run(&capture, from: .zero, measure: Self.card(face: 100)))
        guard case .take(let shot) = action else { throw TestFailure("the front was not taken: \(action)") }
        #expect(shot.side == .front && shot.barcode == nil)
        capture.taken(at: at)
        #expect(capture.wantsBarcode)
        return (capture, at + .milliseconds(1500))
    }

    @Test func theBackIsTakenOnlyOnceItsBarcodeDecodedAndCarriesIt() throws {
        var (capture, start) = try frontTaken()
        // Turned, but the barcode does not decode yet: waited for, not taken.
        #expect(run(&capture, from: start, measure: Self.card(face: 200), limit: 40) == nil)
        let (action, _) = try #require(run(&capture, from: start + .seconds(4), measure: Self.card(face: 200, barcode: Self.example)))
        guard case .take(let shot) = action else { throw TestFailure("the back was not taken: \(action)") }
        #expect(shot.side == .back)
        #expect(shot.barcode?.bytes == Self.example)
        #expect(shot.document?.expectsMRZ == false)
    }

    @Test func aRecordWithoutTheAddressIsY() throws {
        var (capture, start) = try frontTaken()
        let (action, _) = try #require(run(&capture, from: start, measure: Self.card(face: 200, barcode: Self.withoutAddress)))
        #expect(action == .giveUp(.hint(FlowError(.Y))))
        // Given up: frames are ignored until the capture is stopped.
        #expect(capture.frame(at: start + .seconds(30), shutter: false, detectionPaused: false) == .ignore)
    }

    @Test func theFrontStillShownWhenTheTimeoutIsOverIsZ() throws {
        var (capture, start) = try frontTaken()
        let (action, at) = try #require(run(&capture, from: start, measure: Self.card(face: 100)))
        #expect(action == .giveUp(.hint(FlowError(.Z))))
        #expect(at - start >= .seconds(6) && at - start < .seconds(6) + D.period * 2)
    }

    @Test func aBackWhoseBarcodeNeverDecodesGivesUpForTheFallback() throws {
        var (capture, start) = try frontTaken()
        let (action, _) = try #require(run(&capture, from: start, measure: Self.card(face: 200)))
        #expect(action == .giveUp(.fallback))
    }

    @Test func aSymbolThatIsNoAAMVARecordIsNotTaken() throws {
        var (capture, start) = try frontTaken()
        let (action, _) = try #require(run(&capture, from: start, measure: Self.card(face: 200, barcode: Array("https://example.org".utf8))))
        #expect(action == .giveUp(.fallback))
    }

    @Test func inDocFinderModeACardBackNeedsNoBarcode() throws {
        var capture = DocumentCapture(
            request: CaptureRequest(mode: .docFinder, part: .multipart, trigger: CaptureTrigger(), useFlash: false), gate: Self.gate,
            sidePause: .milliseconds(1500))
        let (front, at) = try #require(run(&capture, from: .zero, measure: Self.card(face: 100)))
        guard case .take = front else { throw TestFailure("the front was not taken") }
        capture.taken(at: at)
        #expect(!capture.wantsBarcode)
        let (back, _) = try #require(run(&capture, from: at + .seconds(2), measure: Self.card(face: 200)))
        guard case .take(let shot) = back else { throw TestFailure("the back was not taken: \(back)") }
        #expect(shot.barcode == nil)
    }
}

extension BarcodeCaptureTests {
    /// After Z the journey resumes at the card's back: the capture starts there, so the first
    /// image it takes is the back (before, it was taken as the front and handed over as the back).
    @Test func aCaptureResumedAtTheBackTakesTheBackFirst() throws {
        var capture = DocumentCapture(
            request: CaptureRequest(mode: .barcode, part: .multipart, trigger: CaptureTrigger(), useFlash: true, firstSide: 1),
            gate: Self.gate, sidePause: .milliseconds(1500))
        #expect(capture.wantsBarcode)
        let (action, _) = try #require(run(&capture, from: .zero, measure: Self.card(face: 200, barcode: Self.example)))
        guard case .take(let shot) = action else { throw TestFailure("nothing taken: \(action)") }
        #expect(shot.side == .back && !shot.flashPair)
        #expect(shot.barcode?.bytes == Self.example)
    }
}
