import Foundation

/// The files of the Default UI, read once when the server starts.
///
/// They come from the module's resources (`idkiosk_Display.resources/UI`, which SwiftPM puts
/// next to the built binary; the Debian package installs them as `/usr/share/idkiosk/ui`), or
/// from the operator's `uiDirectory`; translations may be added from `languagesDirectory`.
struct UIAssets: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    /// Files by URL path, e.g. `/app.js`, `/i18n/de.json`.
    var files: [String: File]
    /// The language codes with a translation, sorted.
    var languages: [String]

    static let resourceBundle = "idkiosk_Display.resources"

    /// Where the built-in UI may be, in order: next to the running binary (SwiftPM's layout),
    /// in `../share/idkiosk/ui` from the binary's folder (the Debian package's layout, so
    /// `/usr/bin/idkiosk` finds `/usr/share/idkiosk/ui` without a configuration key, and a copy
    /// under another prefix finds its own), the system's share directories, and the source tree
    /// this binary was built from (development builds only).
    /// - Parameter executable: the running binary, symlinks resolved (`/proc/self/exe`).
    static func builtInCandidates(
        executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    ) -> [URL] {
        let folder = executable.deletingLastPathComponent()
        var candidates = [folder.appendingPathComponent(resourceBundle).appendingPathComponent("UI")]
        candidates.append(folder.deletingLastPathComponent().appendingPathComponent("share/idkiosk/ui"))
        candidates.append(URL(fileURLWithPath: "/usr/share/idkiosk/ui"))
        candidates.append(URL(fileURLWithPath: "/usr/local/share/idkiosk/ui"))
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(source.appendingPathComponent("UI"))
        var seen: Set<String> = []
        return candidates.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The first of `candidates` that holds an `index.html`.
    static func builtInFolder(in candidates: [URL]) -> URL? {
        candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }
    }

    static func load(_ configuration: DisplayServer.Configuration) throws(DisplayServerError) -> UIAssets {
        let root: URL
        if let directory = configuration.uiDirectory {
            root = URL(fileURLWithPath: directory)
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent("index.html").path) else { throw .userInterfaceMissing(searched: [root.path]) }
        } else {
            let candidates = builtInCandidates()
            guard let found = builtInFolder(in: candidates) else { throw .userInterfaceMissing(searched: candidates.map(\.path)) }
            root = found
        }
        var files: [String: File] = [:]
        let depth = root.standardizedFileURL.pathComponents.count
        for file in walk(root) {
            let relative = "/" + file.standardizedFileURL.pathComponents.dropFirst(depth).joined(separator: "/")
            guard let type = contentType(of: relative), let bytes = FileManager.default.contents(atPath: file.path) else { continue }
            files[relative] = File(bytes: Array(bytes), contentType: type)
        }
        if let directory = configuration.languagesDirectory {
            let url = URL(fileURLWithPath: directory)
            guard isDirectory(url) else { throw .unreadable(path: directory) }
            for file in (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
            where file.pathExtension == "json" {
                guard let bytes = FileManager.default.contents(atPath: file.path) else { throw .unreadable(path: file.path) }
                files["/i18n/" + file.lastPathComponent] = File(bytes: Array(bytes), contentType: "application/json")
            }
        }
        if let logo = configuration.logoFile {
            guard let bytes = FileManager.default.contents(atPath: logo), let type = contentType(of: logo) else {
                throw .unreadable(path: logo)
            }
            files["/logo"] = File(bytes: Array(bytes), contentType: type)
        } else if let builtIn = files["/logo.svg"] {
            files["/logo"] = builtIn
        }
        let languages = files.keys.compactMap { key -> String? in
            guard key.hasPrefix("/i18n/"), key.hasSuffix(".json") else { return nil }
            let code = String(key.dropFirst(6).dropLast(5))
            return DisplayServer.Configuration.isLanguageCode(code) ? code : nil
        }
        return UIAssets(files: files, languages: languages.sorted())
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    /// Regular files under `root`, at most two levels deep (the UI has `i18n/`).
    private static func walk(_ root: URL, depth: Int = 0) -> [URL] {
        guard depth < 3, let entries = try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil) else {
            return []
        }
        return entries.flatMap { entry in isDirectory(entry) ? walk(entry, depth: depth + 1) : [entry] }
    }

    static func contentType(of path: String) -> String? {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "woff2": "font/woff2"
        default: nil
        }
    }
}
