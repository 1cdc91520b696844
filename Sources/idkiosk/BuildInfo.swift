/// What this binary is.
enum BuildInfo {
    static let version = "0.1.0"
}
