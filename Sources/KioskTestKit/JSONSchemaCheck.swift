public import Foundation

/// Checks JSON instances against a JSON Schema (Draft 2020-12) with an independent
/// validator: python3 and its `jsonschema` module (scripts/setup-debian.sh installs both).
public enum JSONSchemaCheck {
    /// What to check: instances that must be valid (against one `$defs` definition, or the
    /// whole schema when `definition` is nil), and instances the whole schema must refuse.
    public struct Plan: Sendable {
        public var valid: [(definition: String?, label: String, instances: Data)]
        public var invalid: Data

        /// - Parameters:
        ///   - valid: JSON arrays of instances, each with the definition to check it against.
        ///   - invalid: a JSON array of instances that must fail.
        public init(valid: [(definition: String?, label: String, instances: Data)], invalid: Data) {
            self.valid = valid
            self.invalid = invalid
        }
    }

    /// Runs the check; a missing python3 fails (exit status), a missing module exits 3.
    ///
    /// - Returns: the exit status (0 when everything passed) and what the validator printed
    ///   (up to 20 problems, or "validated").
    public static func run(schema: URL, _ plan: Plan) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = [schema.path]
        let invalid = directory.appendingPathComponent("invalid.json")
        try plan.invalid.write(to: invalid)
        arguments.append(invalid.path)
        for (index, entry) in plan.valid.enumerated() {
            let file = directory.appendingPathComponent("valid-\(index).json")
            try entry.instances.write(to: file)
            arguments += [entry.definition ?? "-", entry.label, file.path]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", validator] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// argv: schema, invalid, then (definition or "-", label, file) triples.
    static let validator = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("python3 has no jsonschema module: install it with `pip install jsonschema`")
            sys.exit(3)
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        whole = jsonschema.Draft202012Validator(schema)
        problems = []
        rest = sys.argv[3:]
        for definition, label, path in zip(rest[0::3], rest[1::3], rest[2::3]):
            check = whole if definition == "-" else jsonschema.Draft202012Validator(dict(schema, oneOf=[{"$ref": "#/$defs/" + definition}]))
            for item in json.load(open(path)):
                for error in check.iter_errors(item):
                    problems.append(label + " " + json.dumps(item) + ": " + error.message)
        for item in json.load(open(sys.argv[2])):
            if whole.is_valid(item):
                problems.append("accepted an invalid sample: " + json.dumps(item))
        print("\\n".join(problems[:20]))
        if problems:
            sys.exit(1)
        print("validated")
        """
}
