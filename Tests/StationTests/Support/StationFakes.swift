import Backend
import Camera
import Capture
import Display
import Foundation
import Imaging
import KioskTestKit
import MRTD
import ScanFlow
import Station
import Synchronization
import VirtualPassport

/// A display that keeps everything it is shown, for tests to wait on.
final class RecordingDisplay: StationDisplay, Sendable {
    enum Entry: Sendable, Equatable {
        case message(DisplayMessage)
        case screen(StationScreen)
        case answer(DisplayMessage, DisplayClientID)
    }

    private let entries = Mutex<[Entry]>([])

    func show(_ message: DisplayMessage) async { entries.withLock { $0.append(.message(message)) } }
    func show(_ screen: StationScreen) async { entries.withLock { $0.append(.screen(screen)) } }
    func answer(_ message: DisplayMessage, to client: DisplayClientID) async { entries.withLock { $0.append(.answer(message, client)) } }

    var all: [Entry] { entries.withLock { $0 } }
    var messages: [DisplayMessage] { all.compactMap { if case .message(let m) = $0 { m } else { nil } } }
    var screens: [StationScreen] { all.compactMap { if case .screen(let s) = $0 { s } else { nil } } }

    /// Waits (up to `limit`, a bound against hanging, not a timing assertion) until `predicate` holds.
    @discardableResult
    func wait(for what: String, limit: Duration = .seconds(30), _ predicate: @Sendable ([Entry]) -> Bool) async throws -> [Entry] {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while clock.now < end {
            let now = all
            if predicate(now) { return now }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("gave up waiting for \(what); saw \(all.suffix(12))")
    }

    func waitForMessage(_ what: String, limit: Duration = .seconds(30), _ predicate: @escaping @Sendable (DisplayMessage) -> Bool) async throws {
        try await wait(for: what, limit: limit) { entries in
            entries.contains { if case .message(let m) = $0 { predicate(m) } else { false } }
        }
    }

    func waitForScreen(_ what: String, limit: Duration = .seconds(30), _ predicate: @escaping @Sendable (StationScreen) -> Bool) async throws {
        try await wait(for: what, limit: limit) { entries in
            entries.contains { if case .screen(let s) = $0 { predicate(s) } else { false } }
        }
    }
}

/// A camera that delivers a real JPEG of a sharp synthetic picture for every part, or fails.
final class FakeCamera: CaptureDevice, Sendable {
    enum Behaviour: Sendable {
        case delivers
        /// Starts, then reports the camera lost.
        case lostAfterStart
    }

    let behaviour: Behaviour
    let chipKey: ChipAccessKey?
    /// What a face part shows, with one liveness frame and the record; nil: the same picture
    /// as every part, no liveness evidence.
    let face: [UInt8]?
    let health: Mutex<DeviceProbe> = Mutex(.ready)
    let captures = Mutex(0)
    /// The chip portraits the face captures were asked to compare with, in order.
    let portraits = Mutex<[[UInt8]?]>([])

    /// In `barcode` mode, the bytes a card's back decodes to (nil: no barcode evidence).
    let barcode: [UInt8]?
    /// In `barcode` mode, what the next captures of a back report instead of taking it (Y, Z).
    let backHints: Mutex<[FlowError]>
    /// The pages of the paper document a `document` part shows.
    let documentPages: Int

    init(
        _ behaviour: Behaviour = .delivers, chipKey: ChipAccessKey?, face: [UInt8]? = nil, barcode: [UInt8]? = nil, backHints: [FlowError] = [],
        documentPages: Int = 2
    ) {
        self.behaviour = behaviour
        self.documentPages = documentPages
        self.chipKey = chipKey
        self.face = face
        self.barcode = barcode
        self.backHints = Mutex(backHints)
    }

    /// The station's record of a liveness capture of one lit frame, as the camera would send
    /// it: live, and the face the chip portrait's person when it was given one.
    static func livenessRecord(compared: Bool) -> LivenessEvidence {
        let match = compared ? #", "match": {"outcome": "match", "similarity": 0.71}"# : ""
        return try! JSONDecoder().decode(LivenessEvidence.self, from: Data("""
            {"challenge": {"slots": [true], "framesPerSlot": 1}, "turn": "left", "attempts": 1,
             "frames": [{"index": 0, "attempt": 1, "lit": true, "phase": "light"}],
             "result": {"decision": "live", "score": 1, "reasons": [], "framesMeasured": 1}\(match)}
            """.utf8))
    }

    static let jpeg: [UInt8] = {
        var image = RGBImage(width: 320, height: 240)
        for y in 0..<240 {
            for x in 0..<320 {
                let v = UInt8(((x / 8 + y / 8) % 2 == 0) ? 40 : 210)
                let i = (y * 320 + x) * 3
                image.pixels[i] = v
                image.pixels[i + 1] = v
                image.pixels[i + 2] = v
            }
        }
        return try! JPEGCodec().encode(image, quality: 85)
    }()

    /// Page `number` of a paper document at the size of a page crop (7 px/mm A4): stripes
    /// as many as its number, so no two pages are the same picture.
    static func page(_ number: Int) -> [UInt8] {
        pages.withLock { cache in
            if let made = cache[number] { return made }
            let (width, height) = (1470, 2079)
            var image = RGBImage(width: width, height: height)
            for y in 0..<height {
                let stripe = (y * (2 * number + 1) / height) % 2 == 1
                for x in 0..<width {
                    let v: UInt8 = stripe && x > 100 && x < width - 100 ? 30 : ((x / 6 + y / 6) % 2 == 0 ? 235 : 215)
                    let i = (y * width + x) * 3
                    image.pixels[i] = v
                    image.pixels[i + 1] = v
                    image.pixels[i + 2] = v
                }
            }
            let jpeg = try! JPEGCodec().encode(image, quality: 85)
            cache[number] = jpeg
            return jpeg
        }
    }

    private static let pages = Mutex<[Int: [UInt8]]>([:])
    /// Pages the document part showed, over all its captures.
    let pagesShown = Mutex(0)

    func probe() async -> DeviceProbe { health.withLock { $0 } }

    func plugBackIn() { health.withLock { $0 = .ready } }

    func capture(_ request: CaptureRequest, report: @escaping @Sendable (CaptureEvent) -> Void) async {
        captures.withLock { $0 += 1 }
        if request.part == .face { portraits.withLock { $0.append(request.portrait) } }
        report(.started)
        if case .lostAfterStart = behaviour {
            try? await Task.sleep(for: .milliseconds(20))
            health.withLock { $0 = .unavailable(fault: "unplugged by the test") }
            report(.lost(reason: "the test unplugged the camera"))
            return
        }
        if request.part == .document {
            // A paper document: its pages one at a time, each another picture; then nothing
            // more until the loop stops the camera (the person said the last page was taken).
            for page in 1...documentPages {
                try? await Task.sleep(for: .milliseconds(5))
                if Task.isCancelled { return }
                pagesShown.withLock { $0 += 1 }
                report(.image(CapturedImage(bytes: Self.page(page), side: .document), isLastOfSide: false))
            }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            return
        }
        let sides: [Credential.Part] = request.part == .multipart ? Array([.front, .back].dropFirst(request.firstSide)) : [request.part]
        for side in sides {
            try? await Task.sleep(for: .milliseconds(5))
            if Task.isCancelled { return }
            report(.update(.extractionState(.holdStill)))
            // The key is read where the MRZ is: a passport's data page, a card's back (none in barcode mode).
            let key = side == (request.part == .multipart ? .back : .front) && request.mode != .barcode ? chipKey : nil
            if side == .back, request.mode == .barcode {
                let hint = backHints.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                if let hint {
                    report(.scanFailed(hint))
                    break
                }
                if let barcode { report(.evidence(.barcode(.pdf417, bytes: barcode))) }
            }
            if side == .face, let face {
                report(.evidence(.livenessFrame(index: 0, jpeg: face)))
                report(.evidence(.liveness(Self.livenessRecord(compared: request.portrait != nil))))
                report(.image(CapturedImage(bytes: face, side: side), isLastOfSide: true))
                continue
            }
            report(.image(CapturedImage(bytes: Self.jpeg, side: side, chipAccessKey: key), isLastOfSide: true))
        }
        // The loop stops the camera (cancels this task) once it has the images.
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
    }
}

/// A reader with a document whose chip data is a real test passport signed by `issuer`,
/// passive authentication checked against that issuer.
final class FakeChip: ChipDevice, Sendable {
    enum Behaviour: Sendable {
        case reads
        /// The document is lifted once mid-read and put back.
        case liftedOnce
        case wrongKey
        /// Only this key opens the chip; every other is refused.
        case opensWith(ChipAccessKey)
    }

    let behaviour: Behaviour
    let reading: ChipReading
    let presenceEvents: AsyncStream<ReaderPresence>
    let presenceContinuation: AsyncStream<ReaderPresence>.Continuation
    let reads = Mutex(0)
    /// The keys the station tried, in order (the test's own; a real chip keeps no such list).
    let keysTried = Mutex<[ChipAccessKey]>([])

    convenience init(_ behaviour: Behaviour = .reads, mrz: [String], issuer: TestIssuer) throws {
        let set = try PassportDataSet.make(mrz: mrz.joined(), faceSize: 4_000) { try issuer.securityObject($0) }
        let passive = PassiveAuthentication.verify(
            files: set.files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Int64(Date().timeIntervalSince1970))
        self.init(behaviour, reading: ChipReading(
            reader: "fake reader", contents: ChipContents(files: set.files, accessControl: .bac), passiveAuthentication: passive, duration: .zero))
    }

    /// A reader whose document reads as `reading` (e.g. what ChipReader read of a virtual passport).
    init(_ behaviour: Behaviour = .reads, reading: ChipReading) {
        self.behaviour = behaviour
        self.reading = reading
        (presenceEvents, presenceContinuation) = AsyncStream.makeStream(of: ReaderPresence.self)
    }

    func presence() -> AsyncStream<ReaderPresence> { presenceEvents }
    func probe() async -> DeviceProbe { .ready }

    func read(key: ChipAccessKey, report: @escaping @Sendable (ChipReport) -> Void) async throws(ChipDeviceError) -> ChipReading {
        reads.withLock { $0 += 1 }
        keysTried.withLock { $0.append(key) }
        report(.waitingForCard)
        if case .wrongKey = behaviour { throw ChipDeviceError(.accessDenied, "the test's key does not open the chip") }
        if case .opensWith(let right) = behaviour, key != right { throw ChipDeviceError(.accessDenied, "the chip refused the key") }
        report(.started)
        for percent in stride(from: 0, through: 100, by: 25) {
            try? await Task.sleep(for: .milliseconds(2))
            if percent == 50, case .liftedOnce = behaviour {
                report(.cardLost)
                try? await Task.sleep(for: .milliseconds(20))
                report(.resumed)
            }
            report(.progress(percent: percent, file: .dg2))
        }
        return reading
    }
}
