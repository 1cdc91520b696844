// Times ChipReader against the virtual passport in memory: what reading a passport costs in
// APDUs, bytes and time per phase at each response size, and checks the issue's two goals:
// the APDUs for a 20 KB DG2 within 2 of the minimum the maximum response size allows, and
// our own processing under 5 % of the total time of a real read.
// Run: swift run -c release MRTDBenchmark [rounds]
import KioskTestKit
import KioskTime
import MRTD
import VirtualPassport

let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10
let clock = ContinuousClock()
let issuer = try TestIssuer(signerValidity: 0...4_000_000_000)
let trust = TrustStore(certificates: [issuer.cscaCertificate])
let chipKey = try ChipAuthentication.chipKey(parameterID: 13, curve: "1.3.36.3.3.2.8.1.1.7")
let dg14 = LDSEncoder.dataGroup14(securityInfos: [
    DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1)),
    DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), chipKey.subjectPublicKeyInfo),
])

/// The contactless link of a real read, which the in-memory chip does not have: ISO/IEC
/// 14443 at 424 kbit/s (53 bytes per ms) each way, and a fixed 4 ms per APDU for the
/// reader's turnaround and the chip's own work. (Real eMRTD chips are slower than this on
/// PACE and on long secure-messaging reads; the model is on the fast side, so the share of
/// our processing it gives is an upper bound.)
enum RadioModel {
    static let bytesPerMillisecond = 53.0
    static let perAPDUMilliseconds = 4.0

    static func milliseconds(_ counts: ChipReadStatistics.Counts) -> Double {
        Double(counts.commands) * perAPDUMilliseconds + Double(counts.bytesSent + counts.bytesReceived) / bytesPerMillisecond
    }
}

func ms(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return "\(rounded)"
}

// MARK: Part 1: DG1 + DG2 (20 KB) + EF.SOD at three response sizes, per phase.

struct Profile {
    var name: String
    var quirks: PassportQuirks
    /// The most plaintext one READ BINARY can return in this profile.
    var maxRead: Int
}

var le223 = PassportQuirks()
le223.extendedLength = false
le223.maxReadLength = 223
var le256 = PassportQuirks()
le256.maxReadLength = 256
let profiles = [
    Profile(name: "Le 223 (short APDUs)", quirks: le223, maxRead: 223),
    Profile(name: "Le 256 (chip buffer 256)", quirks: le256, maxRead: 256),
    Profile(name: "extended length", quirks: PassportQuirks(), maxRead: 65536),
]

let dataSet = try PassportDataSet.make(faceSize: 20_000, signSecurityObject: { try issuer.securityObject($0) })
let key = try dataSet.key()
var failures = 0
let faceStart = clock.now
let faceJPEG = try SyntheticFace.jpeg()
let faceTime = clock.now - faceStart
print("synthetic face (480x640): JPEG \(faceJPEG.count) bytes (drawn and encoded in \(ms(faceTime.inMilliseconds)) ms), JPEG 2000 \(try SyntheticFace.jpeg2000().count) bytes")
print("rounds: \(rounds); BAC; DG1 + DG2 (face 20000 bytes, file \(dataSet.files[.dg2]?.count ?? 0) bytes) + EF.SOD; medians")
print("time columns: transport = waiting for the in-memory chip, ours = ChipReader's own code, radio = modelled 424 kbit/s + \(Int(RadioModel.perAPDUMilliseconds)) ms/APDU")
/// One line of the summary: APDUs per read against the minimum the profile allows.
var summary: [String] = []
// Each profile read from a BAC-only chip and from one that offers PACE (GM, brainpoolP256r1,
// AES-128), which the reader then chooses.
for profile in profiles {
  for offersPACE in [false, true] {
    var reads: [(contents: ChipContents, total: Duration, verification: Duration)] = []
    for _ in 0..<rounds {
        let passport = VirtualPassport(
            key: key, files: dataSet.files, cardAccess: offersPACE ? PassportDataSet.paceCardAccess() : nil, quirks: profile.quirks)
        let start = clock.now
        let contents = try await ChipReader(transport: InMemoryTransport(passport), key: key).read()
        let read = clock.now - start
        let verifyStart = clock.now
        let pa = PassiveAuthentication.verify(files: contents.files, trustStore: trust, at: 2_000_000_000)
        let verification = clock.now - verifyStart
        guard pa.outcome == .passed else { fatalError("passive authentication failed: \(pa)") }
        guard contents.accessControl == (offersPACE ? .pace : .bac) else { fatalError("PACE offered but not chosen: \(contents)") }
        reads.append((contents, read, verification))
    }
    reads.sort { $0.total < $1.total }
    let median = reads[reads.count / 2]
    let statistics = median.contents.statistics
    print()
    print("== \(profile.name), \(offersPACE ? "PACE offered and chosen" : "BAC")")
    print("phase".padding(22) + "APDUs".leftPad(7) + "bytes out/in".leftPad(15) + "transport ms".leftPad(14) + "ours ms".leftPad(10) + "radio ms".leftPad(10))
    func row(_ name: String, _ counts: ChipReadStatistics.Counts, ours: Double? = nil) {
        print(
            name.padding(22) + "\(counts.commands)".leftPad(7) + "\(counts.bytesSent)/\(counts.bytesReceived)".leftPad(15)
                + ms(counts.transportTime.inMilliseconds).leftPad(14) + ms(ours ?? counts.processingTime.inMilliseconds).leftPad(10)
                + ms(RadioModel.milliseconds(counts)).leftPad(10))
    }
    var access = statistics.phases[.cardAccess] ?? .init()
    access.add(statistics.phases[.accessControl] ?? .init())
    row("access control", access)
    for file in statistics.files.keys.sorted() {
        row("  \(file.name)", statistics.files[file] ?? .init())
    }
    for phase in [ChipReadStatistics.Phase.recovery, .activeAuthentication] {
        if let counts = statistics.phases[phase] { row(phase.rawValue, counts) }
    }
    row("verification (PA)", .init(), ours: median.verification.inMilliseconds)
    let total = statistics.total
    // Ours: everything in read() that was not waiting for the chip, plus verification.
    let ours = (median.total - total.transportTime).inMilliseconds + median.verification.inMilliseconds
    row("total", total, ours: ours)

    let dg2Size = dataSet.files[.dg2]?.count ?? 0
    let minimum = 1 + (dg2Size + profile.maxRead - 1) / profile.maxRead
    let dg2 = statistics.files[.dg2]?.commands ?? 0
    let apdusPass = dg2 <= minimum + 2
    if !apdusPass { failures += 1 }
    print("\(apdusPass ? "PASS" : "FAIL") DG2 APDUs: \(dg2), minimum \(minimum) (1 SELECT + \(dg2Size) bytes / \(profile.maxRead) per READ BINARY), goal: within 2")
    let radio = RadioModel.milliseconds(total)
    let share = ours / (ours + radio) * 100
    let sharePass = share < 5
    if !sharePass { failures += 1 }
    print("\(sharePass ? "PASS" : "FAIL") our processing: \(ms(ours)) ms of \(ms(ours + radio)) ms with the modelled radio = \(ms(share)) %, goal: under 5 %")
    let fileAPDUs = statistics.files.values.reduce(0) { $0 + $1.commands }
    let fileMinimum = statistics.files.keys.reduce(0) { sum, file in
        sum + 1 + ((dataSet.files[file]?.count ?? 0) + profile.maxRead - 1) / profile.maxRead
    }
    summary.append(
        profile.name.padding(26) + (offersPACE ? "PACE" : "BAC").padding(6) + "\(dg2) (\(minimum))".leftPad(12)
            + "\(fileAPDUs) (\(fileMinimum))".leftPad(14) + "\(access.commands)".leftPad(9) + "\(total.commands)".leftPad(8))
  }
}
print()
print("== APDUs per read against the minimum each profile allows (1 SELECT + size / maximum answer, per file)")
print("profile".padding(26) + "access" + "DG2 (min)".leftPad(12) + "files (min)".leftPad(14) + "access".leftPad(9) + "all".leftPad(8))
summary.forEach { print($0) }

// MARK: Part 2: every access control, whole reads.

struct Scenario {
    var name: String
    var cardAccess: [UInt8]?
    var quirks = PassportQuirks()
    var chipAuthentication = false
}

var short = PassportQuirks()
short.extendedLength = false
short.maxReadLength = 223
var refusing = PassportQuirks()
refusing.wrongLengthAbove = 223
refusing.wrongLengthIsPlain = true
let scenarios = [
    Scenario(name: "BAC, extended length"),
    Scenario(name: "BAC, 223-byte reads", quirks: short),
    Scenario(name: "BAC, 6700 in plain above 223", quirks: refusing),
    Scenario(name: "PACE GM brainpoolP256r1 AES", cardAccess: PassportDataSet.paceCardAccess()),
    Scenario(name: "PACE IM brainpoolP256r1 AES", cardAccess: PassportDataSet.paceCardAccess(protocol: "0.4.0.127.0.7.2.2.4.4.2")),
    Scenario(name: "PACE GM DH 2048/256 AES", cardAccess: PassportDataSet.paceCardAccess(protocol: "0.4.0.127.0.7.2.2.4.1.2", parameterID: 2)),
    Scenario(name: "PACE IM DH 1024/160 AES", cardAccess: PassportDataSet.paceCardAccess(protocol: "0.4.0.127.0.7.2.2.4.3.2", parameterID: 0)),
    Scenario(name: "PACE + Chip Authentication", cardAccess: PassportDataSet.paceCardAccess(), chipAuthentication: true),
]

print()
print("== every access control (DG1 + DG2 + EF.SOD, DG14 with Chip Authentication)")
print("scenario".padding(34) + "  median ms   APDUs   bytes out/in   restarts")
for scenario in scenarios {
    let dataSet = try PassportDataSet.make(
        faceSize: 20_000, dataGroup14: scenario.chipAuthentication ? dg14 : nil, signSecurityObject: { try issuer.securityObject($0) })
    let key = try dataSet.key()
    var durations: [Duration] = []
    var last: ChipContents?
    for _ in 0..<rounds {
        let passport = VirtualPassport(
            key: key, files: dataSet.files, cardAccess: scenario.cardAccess, quirks: scenario.quirks,
            chipAuthenticationKey: .init(privateKey: chipKey.privateKey, parameterID: 13, cipher: .aes128))
        let start = clock.now
        last = try await ChipReader(transport: InMemoryTransport(passport), key: key).read()
        durations.append(clock.now - start)
    }
    let median = durations.sorted()[durations.count / 2]
    let total = last?.statistics.total ?? ChipReadStatistics.Counts()
    print(
        scenario.name.padding(34) + "  " + ms(median.inMilliseconds).leftPad(9) + "\(total.commands)".leftPad(8)
            + "\(total.bytesSent)/\(total.bytesReceived)".leftPad(15) + "\(last?.statistics.sessionRestarts ?? 0)".leftPad(11))
}
print()
print(failures == 0 ? "all goals met" : "\(failures) goal(s) missed")

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
