import Foundation

/// scripts/validate-api-answers.py on docs/backend-api.yaml: the spec is valid OpenAPI 3.1,
/// and the answers given match its component schemas. Needs the PyPI package
/// openapi-spec-validator (exit status 2 without it).
public enum APISpecValidator {
    static let root = VisionCrops.packageRoot

    /// Runs the validator on the spec, and on `answers` (a JSON file of `[{"schema", "body"}]`)
    /// when given; its exit status and output.
    public static func run(answers: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/validate-api-answers.py").path, root.appendingPathComponent("docs/backend-api.yaml").path]
            + (answers.map { [$0] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
