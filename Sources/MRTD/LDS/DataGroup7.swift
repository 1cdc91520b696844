/// DG7 (Doc 9303 Part 10 §4.7.7): the displayed signature or usual mark, as images.
public struct DataGroup7: Hashable, Sendable {
    /// The encoded images (JPEG or JPEG 2000 as issued), in file order.
    public let images: [[UInt8]]

    /// Parses the file's bytes.
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .dg7)
        let root = try reader.expect(reader.parse(bytes), tag: 0x67, "the DG7 template")
        let count = try reader.integer(root.child(0x02), "the number of images", in: root)
        let images = root.children.filter { $0.tag == 0x5F43 }.map(\.value)
        guard images.count == count else {
            throw reader.error("announces \(count) images but holds \(images.count)", at: root)
        }
        self.images = images
    }
}

extension DataGroup7: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "DG7(\(images.count) image(s), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
