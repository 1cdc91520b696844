import Foundation

/// The command line of a fuzz binary: `BINARY TARGET [libFuzzer options] [CORPUS...]`.
///
/// Built by `make fuzz` with coverage and AddressSanitizer and linked with libFuzzer
/// (-DFUZZING), it hands the inputs libFuzzer makes to `run`. In a normal build it replays
/// files instead: `BINARY TARGET FILE...` runs each file once (a crash found by the fuzzer,
/// kept as a regression input) and prints `TARGET: N input(s) ran`.
public enum FuzzDriver {
    /// The binary's name, for its messages.
    nonisolated(unsafe) static var name = ""
    /// The target chosen on the command line.
    nonisolated(unsafe) static var target = ""
    /// Runs one input on one target; never throws or traps on bad input (errors are values).
    nonisolated(unsafe) static var run: (String, [UInt8]) -> Void = { _, _ in }

    /// Reads the command line, runs the target and exits.
    ///
    /// - Parameters:
    ///   - name: the binary's name, for its usage line.
    ///   - targets: the targets `run` knows.
    ///   - run: one input to one target.
    /// - Returns: never; exits 64 on a usage error, 66 on an unreadable file.
    public static func main(name: String, targets: [String], run: @escaping (String, [UInt8]) -> Void) -> Never {
        var arguments = CommandLine.arguments
        guard arguments.count >= 2, targets.contains(arguments[1]) else {
            fail("usage: \(name) TARGET [FILE... | libFuzzer options]; TARGET: \(targets.joined(separator: ", "))", status: 64)
        }
        (Self.name, Self.target, Self.run) = (name, arguments.remove(at: 1), run)
        #if FUZZING
        var argc = CInt(arguments.count)
        var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let status = cStrings.withUnsafeMutableBufferPointer { buffer -> CInt in
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return runDriver(&argc, &argv) { data, size in
                FuzzDriver.run(FuzzDriver.target, data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                return 0
            }
        }
        exit(status)
        #else
        // FUZZ_MUTATIONS=N: each file, then N deterministic mutations of it (make test's replay:
        // a smoke without the AddressSanitizer build, whose inputs a failure names for a rerun).
        let mutations = Int(ProcessInfo.processInfo.environment["FUZZ_MUTATIONS"] ?? "") ?? 0
        var ran = 0
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { fail("\(name): cannot read \(path)", status: 66) }
            let bytes = [UInt8](data)
            announce("\(path)")
            run(target, bytes)
            ran += 1
            for index in 0..<mutations {
                announce("\(path) mutation \(index)")
                run(target, Mutation.apply(index, to: bytes))
                ran += 1
            }
        }
        print("\(target): \(arguments.count - 1) input(s) ran" + (mutations > 0 ? ", \(ran) with \(mutations) mutations each" : ""))
        exit(0)
        #endif
    }

    /// Names the input about to run on standard error, so that a crash's last line says which.
    static func announce(_ input: String) {
        FileHandle.standardError.write(Data("input: \(input)\n".utf8))
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(status)
    }
}

#if FUZZING
/// libFuzzer's entry point when the program has its own `main` (libclang_rt.fuzzer_no_main).
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
