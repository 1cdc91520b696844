import Foundation
import KioskTestKit
import Testing

/// `idkiosk-fuzz` and `idkiosk-fuzz-station` in a normal build replay inputs (what `make fuzz`
/// finds is kept as a regression input this way): every target takes hostile bytes without a crash.
@Suite struct FuzzReplayTests {
    /// idkiosk-fuzz, or idkiosk-fuzz-station for the station's targets.
    static func binary(for target: String) -> String {
        let name = ["display-command", "config"].contains(target) ? "idkiosk-fuzz-station" : "idkiosk-fuzz"
        return URL(fileURLWithPath: IDKioskBinary.path).deletingLastPathComponent().appendingPathComponent(name).path
    }

    @Test(arguments: [
        "png", "jpeg", "mjpeg", "y4m", "mrz-text", "aamva", "finder", "mrz-reader", "tlv", "lds", "sod", "sm", "atr", "display-command", "config",
    ])
    func everyTargetTakesHostileBytes(target: String) throws {
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<70_000).map { _ -> UInt8 in
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: random >> 56)
        }
        try replay(target, [
            [], [0xFF], noise,
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(noise.prefix(100)),  // a PNG signature, then garbage
            [0xFF, 0xD8, 0xFF, 0xE0] + Array(noise.prefix(300)) + [0xFF, 0xD9],  // a JPEG frame of garbage
            Array("YUV4MPEG2 W99999999 H-1 F0:0\n".utf8),
            Array("P<UTO<<<<".utf8), [255, 255] + Array(noise.prefix(65_536)),
            Array("@\n\u{1E}\rANSI 636000100099DL99999999".utf8),  // an AAMVA header pointing past its end
            Self.jpegOfAHugeDeclaredSize,
        ])
    }

    /// Found by `make fuzz` (jpeg): 944 bytes whose frame header declares 28276 x 21833;
    /// decoding took two minutes and 620 MB until `JPEGCodec.maximumPixels` (JPEGTests).
    static let jpegOfAHugeDeclaredSize = [UInt8](Data(base64Encoded: """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYn
        KSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo
        KCgoKCgoKCj/wAARCFVJbnQDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF
        BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW
        V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi
        4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC
        AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVm
        Z2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq
        8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDwqIHHvViM5HzdahTirC4PJoAsWsXnTxxj+JgK3hczNqUaQyxLbhzE0TL8xI7g/wCeKz9D
        8pbvzJWUbVO0E4yTXRLHCWV8bWxgEj+tITIzicGNlzznHbFU5dItpQ2VKNn+Dj9K0lgCDKHI7EdqGxDCzOeFyxNTrck46/t1t7h4
        Q+4L3xiqY+Qn0qzK5lld2+8xLGoJVP4VZZWRskVZXqPSqicdKnQtQBZU447Vat55oXUQyMm444PH5VSQ4NSox3rjk5FDBHQrcT7f
        nkGfVRjNQX1+BZTWzMxlbGM/3e/NJv4rP1FSWEnbGDWMW76m04pR0KZYjtUMhJqd0ZYt5Ix6VXLDvWydzJqxTiJqyDzRRQIcSasW
        BzMM9qKKUthx3NTcaY/zAg8g0UVznQZ18xMqJ/CBnFUmPJooreOxhPc//9k=
        """, options: .ignoreUnknownCharacters)!)

    /// What a display (over the WebSocket) or a technician's file might hold on purpose:
    /// nesting far deeper than any command or configuration, numbers out of range, a
    /// reference one character too long, aliases of aliases, tags, bytes that are no UTF-8.
    @Test func theDisplayAndConfigurationTargetsTakeHostileText() throws {
        try replay("display-command", [
            String(repeating: "[", count: 100_000), String(repeating: "{\"a\":", count: 100_000),
            #"{"version":3,"type":"setConfiguration","country":"AUT","document":"# + String(repeating: "[", count: 100_000),
            #"{"version": 1e400, "type": "confirm"}"#, #"{"version": 3.0, "type": "confirm"}"#,
            #"{"version": 9223372036854775808, "type": "confirm"}"#,
            #"{"version": 3, "type": "startJourney", "enrollmentTransactionReference": ""# + String(repeating: "x", count: 101) + "\"}",
            #"{"version": 3, "type": "enterChipKey", "documentNumber": "\u00df", "dateOfBirth": "740812", "dateOfExpiry": "120415"}"#,
        ].map { Array($0.utf8) })
        let aliases = "a: &a [x, x, x, x, x, x, x, x, x]\n" + (1..<10).map { level in
            let (name, previous) = (String(UnicodeScalar(97 + level)!), String(UnicodeScalar(96 + level)!))
            return "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }.joined()
        try replay("config", [
            Array(("journey: " + String(repeating: "[", count: 100_000)).utf8),
            Array((0..<3_000).map { String(repeating: " ", count: $0) + "a:\n" }.joined().utf8),
            Array(aliases.utf8), Array("station: !!binary AAAA\nlog: {level: !!int 5}\n? [a, b]\n: c\n".utf8),
            [0xFF, 0xFE, 0x00] + Array("station:\n  name: \u{0}\n".utf8),
        ])
    }

    /// Runs `idkiosk-fuzz TARGET` (a normal build: one run of each input) and expects every
    /// input to run.
    private func replay(_ target: String, _ inputs: [[UInt8]]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-fuzz-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var paths: [String] = []
        for (index, bytes) in inputs.enumerated() {
            let path = "\(folder)/\(index)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let run = runCapturing(Self.binary(for: target), [target] + paths, extraEnvironment: ["IDKIOSK_MODELS": VisionCrops.models])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\(target): \(inputs.count) input(s) ran"))
    }

    @Test func anUnknownTargetIsAUsageError() {
        #expect(runCapturing(Self.binary(for: "gif"), ["gif"]).status == 64)
        #expect(runCapturing(Self.binary(for: "config"), ["png"]).status == 64)
    }
}
