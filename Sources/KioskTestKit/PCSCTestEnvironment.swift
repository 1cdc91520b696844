public import Foundation
import Logging
public import VirtualCard

/// The real PC/SC stack the integration tests run against: pcscd with vsmartcard's
/// vpcd driver, started by `scripts/pcscd-vpcd.sh` (which `make test` calls).
public enum PCSCTestEnvironment {
    /// Whether the tests may use pcscd: `make test` sets `IDKIOSK_PCSCD=1` after
    /// starting it. In CI the integration tests always run, so a missing pcscd
    /// fails them instead of skipping them.
    public static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["IDKIOSK_PCSCD"] == "1" || isCI
    }

    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    public static let skipReason = "needs pcscd with the vpcd driver: run `make test`, or scripts/pcscd-vpcd.sh start and IDKIOSK_PCSCD=1"

    /// The reader vpcd serves on port 35963 (first entry, slot 0).
    public static let firstReader = "Virtual PCD 00 00"
    /// The reader vpcd serves on port 35964 (first entry, slot 1).
    public static let secondSlotReader = "Virtual PCD 00 01"

    /// The repository's root, found from this file's path.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `scripts/pcscd-vpcd.sh` with `arguments` and waits for it.
    /// - Returns: its exit status.
    @discardableResult
    public static func pcscdScript(_ arguments: String...) -> Int32 {
        runToCompletion(repositoryRoot.appendingPathComponent("scripts/pcscd-vpcd.sh").path, arguments)
    }

    /// A virtual card on the given vpcd port (not yet inserted).
    public static func card(_ application: any CardApplication = FileSystemCard.demo(), port: UInt16 = VirtualCard.defaultPort)
        -> VirtualCard
    {
        VirtualCard(application: application, port: port, logger: Logger(label: "test.virtual-card"))
    }
}
