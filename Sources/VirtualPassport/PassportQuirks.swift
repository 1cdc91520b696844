/// Ways the virtual passport can behave like the awkward chips in the field, for tests
/// and demos. Transport-level faults (vanishing, slow answers) are ``CardFaults`` of the
/// `VirtualCard` that serves the passport.
public struct PassportQuirks: Hashable, Sendable {
    /// The most data bytes one READ BINARY answer carries, as a chip's I/O buffer limits
    /// it; the rest of the file needs further reads. `nil`: as many as Le asks.
    public var maxReadLength: Int?
    /// Whether the ATR announces extended length APDUs.
    public var extendedLength = true
    /// Answer READ BINARY with `6700` when its Le exceeds this.
    public var wrongLengthAbove: Int?
    /// Send the `6700` above as a plain status word, which ends secure messaging (as many
    /// chips do for errors they find before unwrapping), instead of inside DO'99'.
    public var wrongLengthIsPlain = false
    /// Answer `6Cxx` with this exact length when a READ BINARY asks for more (plain reads
    /// with a plain status word, protected ones inside DO'99').
    public var exactLengthAbove: Int?
    /// Corrupt the MAC of the protected answer to this protected command (counted from 1
    /// within the session), once: the quirk clears itself when it fires.
    public var corruptMACOnCommand: Int?

    /// Refuse PACE (`6D00` to MSE:Set AT) although EF.CardAccess offers it, as chips with
    /// a PACE defect do; the reader must fall back to BAC.
    public var refusePACE = false

    public init() {}
}
