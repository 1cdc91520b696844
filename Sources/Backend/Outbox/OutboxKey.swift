public import Crypto
import Foundation

/// The AES-256 key that encrypts the outbox at rest, read from a file only its owner
/// (root, or the service user) can read, or from a systemd credential.
public struct OutboxKey: Sendable {
    let key: SymmetricKey

    public init(_ key: SymmetricKey) { self.key = key }

    /// Reads a 32-byte key (raw, or 64 hex digits) from `path`.
    ///
    /// - Throws: ``OutboxError/key(path:reason:)`` when the file is missing, has the wrong
    ///   size, or its mode lets the group or others read or write it.
    public static func load(path: String) throws(OutboxError) -> OutboxKey {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw .key(path: path, reason: "cannot be read")
        }
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o777
        if mode & 0o077 != 0 {
            throw .key(path: path, reason: String(format: "mode %o lets others read it; chmod 600", mode))
        }
        let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value ?? .max
        if owner != 0, owner != getuid() {
            throw .key(path: path, reason: "owned by uid \(owner), neither root nor this user")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .key(path: path, reason: "cannot be read")
        }
        if data.count == 32 { return OutboxKey(SymmetricKey(data: data)) }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count == 64, let bytes = hexBytes(text) else {
            throw .key(path: path, reason: "must hold 32 raw bytes or 64 hex digits")
        }
        return OutboxKey(SymmetricKey(data: bytes))
    }

    /// Reads the key from the systemd credential `name` (`LoadCredential=`), which
    /// systemd makes readable by the service only.
    public static func loadCredential(name: String, environment: [String: String]? = nil) throws(OutboxError) -> OutboxKey {
        let environment = environment ?? ProcessInfo.processInfo.environment
        guard let directory = environment["CREDENTIALS_DIRECTORY"] else {
            throw .key(path: name, reason: "no CREDENTIALS_DIRECTORY: not started by systemd with LoadCredential=")
        }
        return try load(path: directory + "/" + name)
    }

    /// Writes a new random key to `path` with mode 0600.
    public static func generate(path: String) throws(OutboxError) {
        let key = SymmetricKey(size: .bits256)
        let hex = key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
        guard FileManager.default.createFile(atPath: path, contents: Data(hex.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw .key(path: path, reason: "cannot be created")
        }
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = text.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let byte = UInt8(String([high, low]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
