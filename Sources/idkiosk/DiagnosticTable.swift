import Station

/// The checks of `diag backend` and `diag all` as a table for a terminal, and the exit code.
enum DiagnosticTable {
    static func lines(_ checks: [DiagnosticCheck]) -> [String] {
        let width = max(5, checks.map(\.name.count).max() ?? 0)
        var lines: [String] = []
        for check in checks {
            let mark = switch check.status {
            case .pass: "PASS"
            case .warn: "WARN"
            case .fail: "FAIL"
            }
            lines.append("\(mark)  \(check.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(check.detail)")
            if let hint = check.hint, check.status != .pass {
                lines.append("      \(String(repeating: " ", count: width))  hint: \(hint)")
            }
        }
        return lines
    }

    /// 0 when every check passed, 1 when the worst is a warning, 2 when one failed.
    static func exitCode(_ checks: [DiagnosticCheck]) -> Int32 {
        switch checks.worst {
        case .pass: 0
        case .warn: 1
        case .fail: 2
        }
    }
}
