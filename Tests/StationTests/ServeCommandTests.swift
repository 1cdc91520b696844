import Foundation
import Glibc
import KioskTestKit
import Testing

/// `idkiosk serve` failing to start: what a technician reads, and the exit status.
@Suite struct ServeCommandTests {
    /// A listening TCP socket on 127.0.0.1 that holds `port` until closed.
    final class Listener {
        let fd: Int32
        let port: Int

        init() throws {
            let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0, listen(socketFD, 1) == 0 else {
                close(socketFD)
                throw TestFailure("cannot listen on a free port")
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
            }
            fd = socketFD
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    func configuration(in directory: String, displayPort: Int, statusPort: Int, extra: String = "") throws -> String {
        let path = directory + "/idkiosk.yaml"
        try """
            camera:
              name: "file:\(directory)/none.mjpeg"
            flash:
              simulated: true
            backend:
              url: http://127.0.0.1:9
              outbox: \(directory)/outbox.sqlite
              outbox-key-file: \(directory)/outbox.key
            display:
              port: \(displayPort)
            status:
              port: \(statusPort)
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-serve-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aTakenDisplayPortExits74AndNamesThePorts() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let taken = try Listener()
        let path = try configuration(in: directory, displayPort: taken.port, statusPort: freeTCPPort())
        let outcome = runCapturing(IDKioskBinary.path, ["serve", "--config", path])
        #expect(outcome.status == 74, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("display.port \(taken.port)"), "\(outcome.stderr)")
    }

    @Test func aMissingSecretFileExits78AndNamesTheKey() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try configuration(
            in: directory, displayPort: freeTCPPort(), statusPort: freeTCPPort(),
            extra: "journey:\n  start: [touch]\nstation:\n  name: t\n")
        // The secret file is read before anything listens.
        let broken = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "  url: http://127.0.0.1:9", with: "  url: http://127.0.0.1:9\n  client-secret-file: \(directory)/missing.secret")
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = runCapturing(IDKioskBinary.path, ["serve", "--config", path])
        #expect(outcome.status == 78, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("backend.client-secret-file"), "\(outcome.stderr)")
    }
}
