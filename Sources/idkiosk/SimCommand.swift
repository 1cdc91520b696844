import APDU
import ArgumentParser
import Dispatch
import Foundation
import Glibc
import VirtualCard

struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Simulated hardware for demos and tests.",
        subcommands: [SimCardCommand.self, SimPassportCommand.self, SimRecordingsCommand.self]
    )
}

struct SimCardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Put a virtual card on vsmartcard's virtual reader until interrupted.",
        discussion: """
            Needs pcscd with the vpcd driver (scripts/pcscd-vpcd.sh start). Slot 0 is \
            reader "Virtual PCD 00 00" (TCP port 35963), slot 1 "Virtual PCD 00 01" (35964). \
            The card holds a small ISO 7816-4 file system; Ctrl-C takes it off the reader.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "vpcd slot: the TCP port is 35963 + slot.")
    var slot = 0

    @Option(name: .long, help: "The ATR to present, in hex (default: a contactless card announcing extended length).")
    var atr: String?

    @Option(name: .long, help: "Take the card off after this many seconds (default: wait for Ctrl-C).")
    var seconds: Int?

    func validate() throws {
        guard (0...15).contains(slot) else { throw ValidationError("--slot must be between 0 and 15") }
        if let atr {
            guard let bytes = [UInt8](hex: atr) else { throw ValidationError("--atr is not hex: \(atr)") }
            do {
                _ = try ATR(bytes: bytes)
            } catch {
                throw ValidationError("--atr is not a valid ATR: \(error)")
            }
        }
        if let seconds, seconds < 1 { throw ValidationError("--seconds must be at least 1") }
    }

    func run() async throws {
        try await reportingFailures {
            let (_, logger) = try global.start()
            let atrBytes = atr.flatMap { [UInt8](hex: $0) } ?? FileSystemCard.defaultATR
            let application = FileSystemCard.demo(atr: atrBytes)
            let port = VirtualCard.defaultPort + UInt16(slot)
            let card = VirtualCard(application: application, port: port, logger: logger)
            do {
                try card.insert()
            } catch {
                throw CommandFailure(.deviceMissing, "\(error)")
            }
            Output.text(["virtual card on vpcd slot \(slot) (port \(port)); Ctrl-C to remove it"])
            await Self.waitForSignalOrTimeout(seconds: seconds)
            card.remove()
            Output.text(["virtual card removed"])
        }
    }

    /// Waits for SIGINT or SIGTERM, or `seconds` when given.
    static func waitForSignalOrTimeout(seconds: Int?) async {
        let done = DispatchSemaphore(value: 0)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            return source
        }
        if let seconds {
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { done.signal() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        sources.forEach { $0.cancel() }
    }
}
