import ArgumentParser
import Foundation
import MRTD
import Station
import VirtualPassport

/// `idkiosk sim recordings`: the file camera's demo recordings.
struct SimRecordingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordings",
        abstract: "Write camera recordings: a passport data page on the platen (document.mjpeg) and a face (face.mjpeg).",
        discussion: """
            Use them with camera.name: file:DIR. The station takes document.* for documents and \
            face.* for faces. The page's MRZ is drawn in a dot font that no MRZ reader reads: \
            the station finds and takes the page, without a chip key. `make demo` replaces \
            document.mjpeg with the generated OCR-B page of scripts/vision-data, whose MRZ it reads.
            """
    )

    @Option(name: .long, help: "The folder to write into (created when missing).")
    var out: String

    @Option(name: .long, help: "The TD3 MRZ (both lines, 88 characters) printed on the page.")
    var mrz: String?

    @Option(name: .long, help: "Frames per recording.")
    var frames = 24

    func validate() throws {
        guard (4...300).contains(frames) else { throw ValidationError("--frames must be 4 to 300") }
    }

    func run() async throws {
        try await reportingFailures {
            let text = (mrz ?? DemoPassport.mrz.joined()).filter { !$0.isWhitespace }
            do {
                _ = try MRZ(text)
            } catch {
                throw CommandFailure(.badInput, "--mrz: \(error)")
            }
            guard text.count == 88 else { throw CommandFailure(.badInput, "--mrz must be the two 44-character lines of a passport") }
            let lines = [String(text.prefix(44)), String(text.suffix(44))]
            do {
                try DemoRecordings.write(to: out, mrz: lines, frames: frames)
            } catch {
                throw CommandFailure(.badInput, "cannot write into \(out): \(error.localizedDescription)")
            }
            Output.text(["wrote \(out)/document.mjpeg and \(out)/face.mjpeg (\(frames) frames each)"])
        }
    }
}
