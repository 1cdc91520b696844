extension MRZ: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The layout only: every field of an MRZ is personal data.
    public var description: String { "MRZ(\(format.rawValue), redacted)" }
    public var debugDescription: String { description }
    /// No children, so `dump` and the default description of a containing type reveal nothing.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
