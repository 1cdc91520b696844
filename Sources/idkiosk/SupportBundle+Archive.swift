import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension SupportBundle {
    /// Writes `parts` as `folder/<file>` into a gzip-compressed tar on `archive`.
    ///
    /// The archive is made by the system's GNU tar (with gzip): both are Essential packages
    /// of Debian, so they are on every station, and a tar and deflate writer of our own
    /// would be more code to trust for a file written once per support case. The parts wait
    /// in a private folder (mode 0700) that is removed afterwards; the archive names root as
    /// owner and 0600/0700 as modes, so nothing of the technician's account travels.
    /// - Throws: `CommandFailure` (exit 73) when tar is missing or fails.
    static func write(_ parts: [Part], folder: String, to archive: FileHandle) throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/idkiosk-bundle-XXXXXX").utf8CString)
        guard let staging = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            throw CommandFailure(.cannotCreate, "cannot make a private temporary folder: \(String(cString: strerror(errno)))", hint: "check the space and permissions of \(FileManager.default.temporaryDirectory.path) (TMPDIR)")
        }
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let root = staging + "/" + folder
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            for part in parts {
                guard FileManager.default.createFile(atPath: root + "/" + part.file, contents: Data(part.text.utf8), attributes: [.posixPermissions: 0o600]) else {
                    throw CommandFailure(.cannotCreate, "cannot write \(part.file) into \(staging)", hint: "check the space of \(FileManager.default.temporaryDirectory.path) (TMPDIR)")
                }
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(.cannotCreate, "cannot write into \(staging): \(error.localizedDescription)", hint: "check the space of \(FileManager.default.temporaryDirectory.path) (TMPDIR)")
        }
        let outcome: SystemCommand.Outcome
        do {
            outcome = try SystemCommand.run(
                "tar", ["--create", "--gzip", "--file=-", "--owner=0", "--group=0", "--numeric-owner", "--sort=name", "-C", staging, folder], output: archive)
        } catch let failure as CommandFailure {
            throw CommandFailure(.cannotCreate, "cannot make the archive: \(failure.message)", hint: "install tar and gzip (Debian's Essential packages)")
        }
        guard outcome.status == 0 else {
            throw CommandFailure(
                .cannotCreate, "tar exited \(outcome.status): \(outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines))",
                hint: "check the free space where the bundle goes (-o)")
        }
        do { try archive.synchronize() } catch {
            throw CommandFailure(.cannotCreate, "cannot write the bundle to disk: \(error.localizedDescription)", hint: "check the free space where the bundle goes (-o)")
        }
    }
}
