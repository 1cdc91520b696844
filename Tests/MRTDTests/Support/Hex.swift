import APDU

/// Bytes from a hex literal in a test; spaces allowed. A typo yields no bytes, which
/// makes the comparison that uses it fail rather than pass.
func hex(_ text: String) -> [UInt8] {
    [UInt8](hex: text) ?? []
}
