import Synchronization

/// A GPIO line held as output through libgpiod 1.6, with consumer `idkiosk`.
///
/// The line starts off and is switched off and released by `release()` or when the
/// object goes away; the kernel frees it if the process dies, keeping its last value,
/// which is why `Flash` enforces its time limit in the process.
public final class GPIODLine: FlashLine {
    private struct Handles {
        var chip: OpaquePointer?
        var line: OpaquePointer?
    }

    private let handles: Mutex<Handles>
    public let location: String

    /// Takes a line as output, switched off.
    /// - Parameters:
    ///   - chip: the chip's label (as `gpiodetect` prints in brackets); a path or
    ///     `gpiochipN` name also works.
    ///   - line: the line's name (as `gpioinfo` prints).
    /// - Throws: `.chipNotFound`, `.lineNotFound`, `.lineBusy`, `.permissionDenied`.
    public init(chip: String, line: String) throws(FlashError) {
        let chipHandle: OpaquePointer
        switch GPIOD.openChip(label: chip) {
        case .success(let c): chipHandle = c
        case .failure(let e) where e.kind == .chipNotFound:
            chipHandle = try GPIOD.openChip(lookup: chip).mapError { _ in e }.get()
        case .failure(let e): throw e
        }
        let lineHandle: OpaquePointer
        do throws(FlashError) {
            lineHandle = try GPIOD.findLine(chipHandle, name: line).get()
            try GPIOD.requestOutput(lineHandle, initial: false).get()
        } catch {
            GPIOD.closeChip(chipHandle)
            throw error
        }
        location = "\(GPIOD.chipName(chipHandle))/\(line)"
        handles = Mutex(Handles(chip: chipHandle, line: lineHandle))
    }

    deinit {
        release()
    }

    public func set(_ on: Bool) throws(FlashError) {
        try handles.withLock { (h) throws(FlashError) in
            guard let line = h.line else {
                throw FlashError(kind: .released, message: "\(location) was released")
            }
            try GPIOD.setValue(line, on).get()
        }
    }

    public func release() {
        handles.withLock { h in
            if let line = h.line {
                _ = GPIOD.setValue(line, false)
                GPIOD.release(line)
            }
            if let chip = h.chip { GPIOD.closeChip(chip) }
            h = Handles()
        }
    }

    /// The consumer libgpiod reports for the line while we hold it (`idkiosk`).
    public var consumer: String? {
        handles.withLock { h in h.line.flatMap(GPIOD.consumer) }
    }
}
