import CPCSCLite

/// A reader capability from PC/SC part 10 (`FEATURE_*`), with its control code.
public struct ReaderFeature: Hashable, Sendable, Codable, CustomStringConvertible {
    public var tag: UInt8
    public var controlCode: UInt32

    /// The `FEATURE_*` name, or the tag in hex for features reader.h does not name.
    public var name: String {
        Self.names[tag] ?? "FEATURE_0x" + String(tag, radix: 16, uppercase: true)
    }

    public var description: String { name }

    static let names: [UInt8: String] = [
        UInt8(FEATURE_VERIFY_PIN_START): "FEATURE_VERIFY_PIN_START",
        UInt8(FEATURE_VERIFY_PIN_FINISH): "FEATURE_VERIFY_PIN_FINISH",
        UInt8(FEATURE_MODIFY_PIN_START): "FEATURE_MODIFY_PIN_START",
        UInt8(FEATURE_MODIFY_PIN_FINISH): "FEATURE_MODIFY_PIN_FINISH",
        UInt8(FEATURE_GET_KEY_PRESSED): "FEATURE_GET_KEY_PRESSED",
        UInt8(FEATURE_VERIFY_PIN_DIRECT): "FEATURE_VERIFY_PIN_DIRECT",
        UInt8(FEATURE_MODIFY_PIN_DIRECT): "FEATURE_MODIFY_PIN_DIRECT",
        UInt8(FEATURE_MCT_READER_DIRECT): "FEATURE_MCT_READER_DIRECT",
        UInt8(FEATURE_MCT_UNIVERSAL): "FEATURE_MCT_UNIVERSAL",
        UInt8(FEATURE_IFD_PIN_PROPERTIES): "FEATURE_IFD_PIN_PROPERTIES",
        UInt8(FEATURE_ABORT): "FEATURE_ABORT",
        UInt8(FEATURE_SET_SPE_MESSAGE): "FEATURE_SET_SPE_MESSAGE",
        UInt8(FEATURE_VERIFY_PIN_DIRECT_APP_ID): "FEATURE_VERIFY_PIN_DIRECT_APP_ID",
        UInt8(FEATURE_MODIFY_PIN_DIRECT_APP_ID): "FEATURE_MODIFY_PIN_DIRECT_APP_ID",
        UInt8(FEATURE_WRITE_DISPLAY): "FEATURE_WRITE_DISPLAY",
        UInt8(FEATURE_GET_KEY): "FEATURE_GET_KEY",
        UInt8(FEATURE_IFD_DISPLAY_PROPERTIES): "FEATURE_IFD_DISPLAY_PROPERTIES",
        UInt8(FEATURE_GET_TLV_PROPERTIES): "FEATURE_GET_TLV_PROPERTIES",
        UInt8(FEATURE_CCID_ESC_COMMAND): "FEATURE_CCID_ESC_COMMAND",
        UInt8(FEATURE_EXECUTE_PACE): "FEATURE_EXECUTE_PACE",
    ]

    /// Parses the TLV list a reader returns: tag, length 4, big-endian control code.
    /// Stops at the first malformed entry.
    static func parse(_ bytes: [UInt8]) -> [ReaderFeature] {
        var features: [ReaderFeature] = []
        var i = 0
        while i + 6 <= bytes.count, bytes[i + 1] == 4 {
            let code = bytes[(i + 2)..<(i + 6)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            features.append(ReaderFeature(tag: bytes[i], controlCode: code))
            i += 6
        }
        return features
    }
}
