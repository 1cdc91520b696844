// The PC/SC path, measured: one APDU through libpcsclite -> pcscd -> vpcd -> our
// virtual card, against baselines taken in the same run (the same card without
// pcscd in between, and the virtual card without quick ACKs).
//
// Run with `make bench` (starts pcscd with the vpcd reader). Prints a table; it
// asserts nothing: speed is read, not tested.

import APDU
import Foundation
import KioskTestKit
import KioskTime
import Logging
import SmartCard
import VirtualCard

let logger = Logger(label: "bench")
let reader = PCSCTestEnvironment.firstReader
let select = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])
let readShort = CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0x00, le: 256)
let readExtended = CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0x00, le: 65536)

struct Figures {
    var name: String
    var samples: [Duration]

    var sorted: [Double] { samples.map(\.inMilliseconds).sorted() }
    var median: Double { sorted[sorted.count / 2] }
    var p95: Double { sorted[min(sorted.count - 1, sorted.count * 95 / 100)] }
    var total: Double { sorted.reduce(0, +) }
}

func measure(_ name: String, count: Int, _ body: () async throws -> Void) async rethrows -> Figures {
    let clock = ContinuousClock()
    for _ in 0..<5 { try await body() }  // warm-up
    var samples: [Duration] = []
    for _ in 0..<count {
        let start = clock.now
        try await body()
        samples.append(start.duration(to: clock.now))
    }
    return Figures(name: name, samples: samples)
}

func waitForCard(_ present: Bool) async throws {
    let context = try PCSCContext(logger: logger)
    for _ in 0..<100 {
        if try context.state(of: reader).cardPresent == present { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw SmartCardError(kind: .noCard, message: "the virtual card never showed up on \(reader)")
}

func throughPCSC(quickAck: Bool, count: Int) async throws -> [Figures] {
    try await waitForCard(false)
    let card = VirtualCard(application: FileSystemCard.demo(), quickAcknowledgements: quickAck, logger: logger)
    try card.insert()
    defer { card.remove() }
    try await waitForCard(true)
    let connection = try await PCSCContext(logger: logger).connect(reader: reader)
    defer { Task { await connection.disconnect() } }
    let label = quickAck ? "pcscd+vpcd" : "pcscd+vpcd, no quick ACK (before)"
    _ = try await connection.transmit(select)
    return [
        try await measure("SELECT, \(label)", count: count) { _ = try await connection.transmit(select) },
        try await measure("READ 256 B, \(label)", count: count) { _ = try await connection.transmit(readShort) },
        try await measure("READ 600 B extended, \(label)", count: count) { _ = try await connection.transmit(readExtended) },
    ]
}

func inMemory(count: Int) async throws -> [Figures] {
    let transport = InMemoryTransport(FileSystemCard.demo())
    _ = try await transport.transmit(select)
    return [
        try await measure("SELECT, in memory (no PC/SC)", count: count) { _ = try await transport.transmit(select) },
        try await measure("READ 256 B, in memory (no PC/SC)", count: count) { _ = try await transport.transmit(readShort) },
    ]
}

var rows: [Figures] = []
rows += try await inMemory(count: 2000)
rows += try await throughPCSC(quickAck: true, count: 500)
rows += try await throughPCSC(quickAck: false, count: 25)

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func num(_ v: Double) -> String { String(format: "%9.3f", v) }
print(pad("APDU round trip", 48) + "  samples  median ms     p95 ms")
for row in rows {
    print(pad(row.name, 48) + String(format: "  %7d", row.samples.count) + "  " + num(row.median) + "  " + num(row.p95))
}
let fast = rows.first { $0.name == "SELECT, pcscd+vpcd" }!
let slow = rows.first { $0.name == "SELECT, pcscd+vpcd, no quick ACK (before)" }!
let memory = rows.first { $0.name == "SELECT, in memory (no PC/SC)" }!
print(String(format: "quick ACKs make a virtual-card round trip %.0fx faster; the PC/SC stack adds %.3f ms per APDU over the card itself",
    slow.median / fast.median, fast.median - memory.median))
