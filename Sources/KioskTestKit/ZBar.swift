import Foundation

/// ZBar's `zbarimg` (Debian zbar-tools): a QR decoder we did not write, for tests that read
/// back the codes the station draws.
public enum ZBar {
    /// The binary, when installed.
    public static let path = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    public static var isAvailable: Bool { path != nil }
    public static let skipReason = "zbarimg not found: install Debian's zbar-tools (scripts/setup-debian.sh installs it)"

    /// The texts of the QR codes zbarimg finds in an image file (PNG, PGM, …), one per code.
    /// - Throws: `ChildProcessError` when zbarimg is missing or fails other than by finding no code.
    public static func decodeQR(imageAt file: String) throws -> [String] {
        guard let path else { throw ChildProcessError(skipReason) }
        let result = runCapturing(path, ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file])
        // 4: the image was read and held no code.
        guard result.status == 0 || result.status == 4 else { throw ChildProcessError("zbarimg \(result.status): \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
