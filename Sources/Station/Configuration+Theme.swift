public import Display

extension Configuration.Theme {
    /// The Default UI's theme (`/config.json`) for `display.theme`: each colour with its dark
    /// variant, so that dark mode (`dark: on`, or `auto` on a display that prefers it) has a
    /// dark background and light text, not the light colours again.
    public var display: Display.Theme {
        var theme = Display.Theme()
        theme.primary = .init(primary, dark: darkPrimary)
        theme.background = .init(background, dark: darkBackground)
        theme.text = .init(text, dark: darkText)
        theme.appearance = dark == "on" ? .dark : dark == "off" ? .light : .system
        theme.contrast = highContrast == "on" ? .high : highContrast == "off" ? .normal : .system
        return theme
    }
}
