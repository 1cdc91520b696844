// Times ChipReader against the virtual passport in memory: what reading a passport costs in
// APDUs, bytes and CPU with each access control and reader profile, without radio time.
// Run: swift run -c release MRTDBenchmark [rounds]
import KioskTestKit
import MRTD
import VirtualPassport

struct Scenario {
    var name: String
    var cardAccess: [UInt8]?
    var quirks = PassportQuirks()
    var chipAuthentication = false
}

let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10
let issuer = try TestIssuer(signerValidity: 0...4_000_000_000)
let chipKey = try ChipAuthentication.chipKey(parameterID: 13, curve: "1.3.36.3.3.2.8.1.1.7")
let dg14 = LDSEncoder.dataGroup14(securityInfos: [
    DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1)),
    DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), chipKey.subjectPublicKeyInfo),
])

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
    Scenario(name: "PACE + Chip Authentication", cardAccess: PassportDataSet.paceCardAccess(), chipAuthentication: true),
]

print("rounds: \(rounds), DG2 face: 20000 bytes")
print("scenario".rightPad(34) + "  median ms   APDUs   bytes out/in   restarts")
let clock = ContinuousClock()
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
    let milliseconds = Double(median.components.seconds) * 1000 + Double(median.components.attoseconds) / 1e15
    let total = last?.statistics.total ?? ChipReadStatistics.Counts()
    let name = scenario.name.rightPad(34)
    let time = format6(milliseconds)
    let commands = "\(total.commands)".leftPad(8)
    let bytes = "\(total.bytesSent)/\(total.bytesReceived)".leftPad(15)
    let restarts = "\(last?.statistics.sessionRestarts ?? 0)".leftPad(11)
    let line = name + "  " + time + commands + bytes + restarts
    print(line)
}

func format6(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return "\(rounded)".leftPad(9)
}

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    func rightPad(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
