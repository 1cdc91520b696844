import ArgumentParser
import Camera
import Capture
import Flash
import Station

/// `--camera`: which camera a command uses.
struct CameraOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "The camera: /dev/videoN, a /dev/v4l/by-id link, bus:POSITION, card:NAME, or file:PATH for a recording (default: camera.name, else the first camera)."
    )
    var camera: String?

    func validate() throws {
        if let camera, !Self.isFile(camera), camera.isEmpty || !Configuration.isCameraName(camera) {
            throw ValidationError("--camera must be /dev/videoN, a path under /dev/v4l, bus:POSITION, card:NAME or file:PATH (got '\(camera)')")
        }
    }

    /// The camera to use: the option, else `camera.name`, else the first capture device.
    /// - Throws: `CommandFailure` 69 when no name is given and the kernel shows no camera.
    func choose(_ configuration: Configuration) throws -> CameraSource {
        let name = camera ?? configuration.camera.name
        if Self.isFile(name) { return CameraSource(name: name) }
        if !name.isEmpty { return .device(name) }
        guard let first = CameraDiscovery.captureDevices().first else {
            throw CommandFailure(
                .deviceMissing, "no camera: the kernel shows no video capture device",
                hint: "connect the camera and check `dmesg` for the uvcvideo driver; `ls /dev/video*` should list it")
        }
        return .device(first.preferredName)
    }

    private static func isFile(_ name: String) -> Bool { name.hasPrefix("file:") && name.count > "file:".count }
}

/// `--flash-chip`, `--flash-line`, `--simulated`: which LED line a command drives.
struct FlashOptions: ParsableArguments {
    @Option(name: .long, help: "GPIO chip of the flash LED: its label (gpiodetect), gpiochipN or a path (default: flash.chip).")
    var flashChip: String?

    @Option(name: .long, help: "GPIO line name of the flash LED (gpioinfo) (default: flash.line).")
    var flashLine: String?

    @Flag(name: .long, help: "Drive a simulated line instead of GPIO (default: flash.simulated).")
    var simulated = false

    func validate() throws {
        if simulated && (flashChip != nil || flashLine != nil) {
            throw ValidationError("--simulated drives no GPIO line: leave out --flash-chip and --flash-line")
        }
        if flashChip?.isEmpty == true || flashLine?.isEmpty == true {
            throw ValidationError("--flash-chip and --flash-line must not be empty")
        }
    }

    /// The line and limit to use, from the options over the configuration.
    /// - Throws: `CommandFailure` 78 when no line is configured and none is simulated.
    func flashConfiguration(_ configuration: Configuration) throws -> FlashConfiguration {
        let limit = configuration.flash.maximumOnMilliseconds
        if simulated || (configuration.flash.simulated && flashChip == nil && flashLine == nil) {
            return FlashConfiguration(chip: nil, line: nil, maximumOnMilliseconds: limit)
        }
        let chip = flashChip ?? configuration.flash.chip
        let line = flashLine ?? configuration.flash.line
        guard !chip.isEmpty, !line.isEmpty else {
            throw CommandFailure(
                .badConfiguration, "no flash line configured (flash.chip and flash.line)",
                hint: "set flash.chip and flash.line in the configuration (`gpiodetect`, `gpioinfo` name them), give --flash-chip and --flash-line, or use --simulated")
        }
        return FlashConfiguration(chip: chip, line: line, maximumOnMilliseconds: limit)
    }
}
