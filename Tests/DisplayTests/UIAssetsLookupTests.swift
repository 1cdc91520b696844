@testable import Display
import Foundation
import Testing

/// Where an installed binary finds the Default UI without a configuration key: the Debian
/// package puts the binary in `<prefix>/bin` and the UI in `<prefix>/share/idkiosk/ui`.
@Suite struct UIAssetsLookupTests {
    /// A folder tree `<root>/usr/bin/idkiosk` with, when asked, `<root>/usr/share/idkiosk/ui/index.html`.
    private static func installation(withUI: Bool) throws -> (root: URL, executable: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("display-prefix-\(UUID().uuidString)")
        let bin = root.appendingPathComponent("usr/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let executable = bin.appendingPathComponent("idkiosk")
        try Data("#!/bin/sh\n".utf8).write(to: executable)
        if withUI {
            let ui = root.appendingPathComponent("usr/share/idkiosk/ui")
            try FileManager.default.createDirectory(at: ui, withIntermediateDirectories: true)
            try Data("<html><body>installed default UI</body></html>".utf8).write(to: ui.appendingPathComponent("index.html"))
        }
        return (root, executable)
    }

    @Test func aPackagedBinaryFindsTheUIInItsPrefixsShareFolder() throws {
        let (root, executable) = try Self.installation(withUI: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let found = try #require(UIAssets.builtInFolder(in: UIAssets.builtInCandidates(executable: executable)))
        #expect(found.standardizedFileURL.path == root.appendingPathComponent("usr/share/idkiosk/ui").standardizedFileURL.path)
    }

    @Test func theResourceBundleBesideTheBinaryComesFirst() throws {
        let (root, executable) = try Self.installation(withUI: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let bundle = executable.deletingLastPathComponent().appendingPathComponent("idkiosk_Display.resources/UI")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("<html></html>".utf8).write(to: bundle.appendingPathComponent("index.html"))
        let found = try #require(UIAssets.builtInFolder(in: UIAssets.builtInCandidates(executable: executable)))
        #expect(found.standardizedFileURL.path == bundle.standardizedFileURL.path)
    }

    @Test func theSearchedFoldersNameThePackagesFolder() throws {
        let (root, executable) = try Self.installation(withUI: false)
        defer { try? FileManager.default.removeItem(at: root) }
        let candidates = UIAssets.builtInCandidates(executable: executable).map(\.standardizedFileURL.path)
        #expect(candidates.prefix(4) == [
            root.appendingPathComponent("usr/bin/idkiosk_Display.resources/UI").standardizedFileURL.path,
            root.appendingPathComponent("usr/share/idkiosk/ui").standardizedFileURL.path,
            "/usr/share/idkiosk/ui",
            "/usr/local/share/idkiosk/ui",
        ])
    }
}
