import CV4L2

/// A control of a camera in station terms; drivers name and number them differently.
public enum CameraControl: String, Hashable, Sendable, Codable, CaseIterable {
    /// Manual exposure time (UVC: 100 µs units); needs `autoExposure` set to manual.
    case exposure
    /// Automatic exposure mode (UVC menu: manual, auto, shutter or aperture priority).
    case autoExposure
    case gain
    case autoGain
    case brightness
    case contrast
    /// White balance colour temperature in kelvin; needs `autoWhiteBalance` off.
    case whiteBalanceTemperature
    case autoWhiteBalance
    /// Manual focus position; needs `autoFocus` off.
    case focus
    case autoFocus
    /// Mains frequency for anti-flicker (menu: disabled, 50 Hz, 60 Hz, auto).
    case powerLineFrequency

    /// The standard control ids that mean this control, best first
    /// (V4L2_CID_EXPOSURE_ABSOLUTE before V4L2_CID_EXPOSURE, ...).
    public var standardIDs: [UInt32] {
        switch self {
        case .exposure: return [cv4l2_cid_exposure_absolute(), cv4l2_cid_exposure()]
        case .autoExposure: return [cv4l2_cid_exposure_auto()]
        case .gain: return [cv4l2_cid_gain()]
        case .autoGain: return [cv4l2_cid_autogain()]
        case .brightness: return [cv4l2_cid_brightness()]
        case .contrast: return [cv4l2_cid_contrast()]
        case .whiteBalanceTemperature: return [cv4l2_cid_white_balance_temperature()]
        case .autoWhiteBalance: return [cv4l2_cid_auto_white_balance()]
        case .focus: return [cv4l2_cid_focus_absolute()]
        case .autoFocus: return [cv4l2_cid_focus_auto()]
        case .powerLineFrequency: return [cv4l2_cid_power_line_frequency()]
        }
    }

    /// Name fragments (lowercased, spaces and punctuation removed) by which drivers
    /// without standard ids (vendor controls, some sensor drivers) label this control.
    public var nameAliases: [String] {
        switch self {
        case .exposure: return ["exposuretimeabsolute", "exposureabsolute", "exposuretime", "exposure"]
        case .autoExposure: return ["autoexposure", "exposureauto", "exposuremode"]
        case .gain: return ["gain", "analoguegain", "analoggain"]
        case .autoGain: return ["autogain", "gainautomatic"]
        case .brightness: return ["brightness"]
        case .contrast: return ["contrast"]
        case .whiteBalanceTemperature: return ["whitebalancetemperature", "whitebalance"]
        case .autoWhiteBalance: return ["whitebalanceautomatic", "whitebalancetemperatureauto", "autowhitebalance"]
        case .focus: return ["focusabsolute", "focus"]
        case .autoFocus: return ["focusautomaticcontinuous", "focusauto", "autofocus"]
        case .powerLineFrequency: return ["powerlinefrequency"]
        }
    }
}

/// A control as the driver describes it.
public struct ControlInfo: Hashable, Sendable, Codable {
    public enum ValueType: String, Hashable, Sendable, Codable {
        case integer, boolean, menu, integerMenu, other
    }

    public var id: UInt32
    public var name: String
    public var type: ValueType
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    public var defaultValue: Int64
    /// Menu entries by index, for menu controls.
    public var menu: [Int: String]
    public var isReadOnly: Bool
    /// Inactive now because an automatic mode overrides it.
    public var isInactive: Bool

    public init(
        id: UInt32, name: String, type: ValueType, minimum: Int64 = 0, maximum: Int64 = 0, step: UInt64 = 1,
        defaultValue: Int64 = 0, menu: [Int: String] = [:], isReadOnly: Bool = false, isInactive: Bool = false
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.menu = menu
        self.isReadOnly = isReadOnly
        self.isInactive = isInactive
    }

    /// Clamps `value` into the control's range and onto its step.
    public func clamped(_ value: Int64) -> Int64 {
        var v = max(minimum, min(maximum, value))
        if step > 1 { v = minimum + (v - minimum) / Int64(step) * Int64(step) }
        return v
    }
}

/// Finds a camera's control for each station control: by standard id first, then by
/// the driver's name. A pure function, so each driver's list can be tested as values.
public enum ControlMapping {
    public static func resolve(_ control: CameraControl, in controls: [ControlInfo]) -> ControlInfo? {
        let usable = controls.filter { !$0.isReadOnly }
        for id in control.standardIDs {
            if let c = usable.first(where: { $0.id == id }) { return c }
        }
        // Aliases are ordered from specific to general; the exact match wins over a prefix.
        for alias in control.nameAliases {
            if let c = usable.first(where: { normalized($0.name) == alias }) { return c }
        }
        return nil
    }

    /// Every station control this camera has.
    public static func resolveAll(_ controls: [ControlInfo]) -> [CameraControl: ControlInfo] {
        var map: [CameraControl: ControlInfo] = [:]
        for control in CameraControl.allCases {
            if let c = resolve(control, in: controls) { map[control] = c }
        }
        return map
    }

    /// `Exposure Time, Absolute` becomes `exposuretimeabsolute`.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
    }
}

/// The automatic controls a camera held still for a measurement that compares frames'
/// brightness (the liveness light challenge: automatic exposure, gain or white balance
/// would make up for the LED and hide the face's answer to it), with the values to restore.
public struct ExposureHold: Hashable, Sendable {
    /// Each automatic control switched to manual, with its value before.
    public var restore: [CameraControl: Int64]

    public init(restore: [CameraControl: Int64] = [:]) {
        self.restore = restore
    }
}

/// A camera that can hold its automatic exposure, gain and white balance still.
public protocol ExposureHolding: AnyObject {
    /// Switches automatic exposure, gain and white balance to manual where the camera has
    /// them (the values they reached stay), and says what to restore. Controls the camera
    /// lacks or will not set are left alone.
    func holdExposure() -> ExposureHold
    /// Puts back what `holdExposure` changed.
    func release(_ hold: ExposureHold)
}

extension CameraControl {
    /// The value that turns this automatic control off (`V4L2_EXPOSURE_MANUAL` for exposure,
    /// 0 for the boolean ones); nil for the manual controls.
    var manualValue: Int64? {
        switch self {
        case .autoExposure: 1
        case .autoGain, .autoWhiteBalance: 0
        case .exposure, .gain, .brightness, .contrast, .whiteBalanceTemperature, .focus, .autoFocus, .powerLineFrequency: nil
        }
    }
}
