/// The Default UI's look (the seeds' `Jumio.Theme`): colours with an optional dark-mode
/// variant, the appearance, and the operator's logo.
public struct Theme: Hashable, Sendable, Codable {
    /// A colour, optionally different in dark mode (the seeds' `Jumio.Theme.Value`).
    /// Colours are CSS hex colours (`#RGB`, `#RRGGBB` or `#RRGGBBAA`); anything else is refused.
    public struct Value: Hashable, Sendable, Codable {
        public var light: String
        public var dark: String?

        public init(_ light: String, dark: String? = nil) {
            self.light = light
            self.dark = dark
        }
    }

    /// Light, dark, or as the display's system says (the seeds: dark mode follows the system).
    public enum Appearance: String, Hashable, Sendable, Codable, CaseIterable {
        case system
        case light
        case dark
    }

    /// The high-contrast theme (black and white, bold outlines): always, never on its own, or
    /// when the display asks for more contrast (`prefers-contrast: more`). The person can turn
    /// it on at the screen in every case.
    public enum Contrast: String, Hashable, Sendable, Codable, CaseIterable {
        case system
        case normal
        case high
    }

    /// Buttons, progress, the guide overlay.
    public var primary: Value
    /// Text on primary-coloured buttons.
    public var onPrimary: Value
    public var background: Value
    public var text: Value
    /// Success (the result screen, accepted steps).
    public var positive: Value
    /// Errors and rejections.
    public var negative: Value
    public var appearance: Appearance
    public var contrast: Contrast

    public init(
        primary: Value = Value("#1a56db", dark: "#6b9bff"),
        onPrimary: Value = Value("#ffffff", dark: "#0b1020"),
        background: Value = Value("#f7f8fa", dark: "#0b1020"),
        text: Value = Value("#111827", dark: "#f3f4f6"),
        positive: Value = Value("#047857", dark: "#34d399"),
        negative: Value = Value("#b91c1c", dark: "#f87171"),
        appearance: Appearance = .system,
        contrast: Contrast = .system
    ) {
        self.primary = primary
        self.onPrimary = onPrimary
        self.background = background
        self.text = text
        self.positive = positive
        self.negative = negative
        self.appearance = appearance
        self.contrast = contrast
    }

    private enum CodingKeys: String, CodingKey {
        case primary, onPrimary, background, text, positive, negative, appearance, contrast
    }

    /// Every key is optional: what is not named keeps the default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Theme()
        primary = try container.decodeIfPresent(Value.self, forKey: .primary) ?? defaults.primary
        onPrimary = try container.decodeIfPresent(Value.self, forKey: .onPrimary) ?? defaults.onPrimary
        background = try container.decodeIfPresent(Value.self, forKey: .background) ?? defaults.background
        text = try container.decodeIfPresent(Value.self, forKey: .text) ?? defaults.text
        positive = try container.decodeIfPresent(Value.self, forKey: .positive) ?? defaults.positive
        negative = try container.decodeIfPresent(Value.self, forKey: .negative) ?? defaults.negative
        appearance = try container.decodeIfPresent(Appearance.self, forKey: .appearance) ?? defaults.appearance
        contrast = try container.decodeIfPresent(Contrast.self, forKey: .contrast) ?? defaults.contrast
    }

    /// The colours that are not CSS hex colours, by name; empty when the theme is valid.
    public var invalidColours: [String] {
        let values: [(String, Value)] = [
            ("primary", primary), ("onPrimary", onPrimary), ("background", background), ("text", text),
            ("positive", positive), ("negative", negative),
        ]
        return values.flatMap { name, value in
            [value.light, value.dark].compactMap { $0 }.filter { !Self.isHexColour($0) }.map { _ in name }
        }
    }

    static func isHexColour(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.first == UInt8(ascii: "#"), [4, 7, 9].contains(utf8.count) else { return false }
        return utf8.dropFirst().allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}
