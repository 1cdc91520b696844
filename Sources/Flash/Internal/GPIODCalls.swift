import CGPIOD
import Glibc

// Every libgpiod function is called from exactly one function here. libgpiod's
// ioctls already retry EINTR where it matters; we retry the value writes only.

typealias GPIOResult<T> = Result<T, FlashError>

enum GPIOD {
    static func openChip(label: String) -> GPIOResult<OpaquePointer> {
        guard let chip = gpiod_chip_open_by_label(label) else {
            return .failure(error("gpiod_chip_open_by_label", errno, notFound: .chipNotFound, what: "no GPIO chip labelled \(label)"))
        }
        return .success(chip)
    }

    /// Opens by path (`/dev/gpiochip0`), name (`gpiochip0`), label or number.
    static func openChip(lookup: String) -> GPIOResult<OpaquePointer> {
        guard let chip = gpiod_chip_open_lookup(lookup) else {
            return .failure(error("gpiod_chip_open_lookup", errno, notFound: .chipNotFound, what: "no GPIO chip \(lookup)"))
        }
        return .success(chip)
    }

    static func closeChip(_ chip: OpaquePointer) {
        gpiod_chip_close(chip)
    }

    static func chipName(_ chip: OpaquePointer) -> String { String(cString: gpiod_chip_name(chip)) }
    static func chipLabel(_ chip: OpaquePointer) -> String { String(cString: gpiod_chip_label(chip)) }
    static func lineCount(_ chip: OpaquePointer) -> Int { Int(gpiod_chip_num_lines(chip)) }

    static func findLine(_ chip: OpaquePointer, name: String) -> GPIOResult<OpaquePointer> {
        guard let line = gpiod_chip_find_line(chip, name) else {
            return .failure(error("gpiod_chip_find_line", errno, notFound: .lineNotFound, what: "no line named \(name)"))
        }
        return .success(line)
    }

    static func requestOutput(_ line: OpaquePointer, initial: Bool) -> GPIOResult<Void> {
        if gpiod_line_request_output(line, cgpiod_consumer(), initial ? 1 : 0) == 0 { return .success(()) }
        return .failure(error("gpiod_line_request_output", errno, notFound: .lineNotFound, what: "cannot take the line as output"))
    }

    static func setValue(_ line: OpaquePointer, _ on: Bool) -> GPIOResult<Void> {
        while true {
            if gpiod_line_set_value(line, on ? 1 : 0) == 0 { return .success(()) }
            if errno == EINTR { continue }
            return .failure(error("gpiod_line_set_value", errno, notFound: .failed, what: "cannot set the line"))
        }
    }

    static func release(_ line: OpaquePointer) {
        gpiod_line_release(line)
    }

    static func consumer(_ line: OpaquePointer) -> String? {
        gpiod_line_consumer(line).map { String(cString: $0) }
    }

    static var consumerName: String { String(cString: cgpiod_consumer()) }

    private static func error(_ call: String, _ code: Int32, notFound: FlashError.Kind, what: String) -> FlashError {
        let kind: FlashError.Kind
        switch code {
        case ENOENT, ENODEV: kind = notFound
        case EBUSY: kind = .lineBusy
        case EACCES, EPERM: kind = .permissionDenied
        default: kind = .failed
        }
        return FlashError(kind: kind, call: call, errno: code, message: "\(what): \(String(cString: strerror(code)))")
    }
}
