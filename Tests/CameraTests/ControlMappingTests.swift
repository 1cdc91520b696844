import CV4L2
import Camera
import Testing

@Suite("Control mapping")
struct ControlMappingTests {
    /// What uvcvideo lists for a typical webcam: standard ids.
    let uvc: [ControlInfo] = [
        ControlInfo(id: cv4l2_cid_brightness(), name: "Brightness", type: .integer, minimum: 0, maximum: 255, defaultValue: 128),
        ControlInfo(id: cv4l2_cid_exposure_auto(), name: "Auto Exposure", type: .menu, minimum: 0, maximum: 3, defaultValue: 3, menu: [1: "Manual Mode", 3: "Aperture Priority Mode"]),
        ControlInfo(id: cv4l2_cid_exposure_absolute(), name: "Exposure Time, Absolute", type: .integer, minimum: 3, maximum: 2047, defaultValue: 250, isInactive: true),
        ControlInfo(id: cv4l2_cid_power_line_frequency(), name: "Power Line Frequency", type: .menu, minimum: 0, maximum: 2, defaultValue: 2),
        ControlInfo(id: cv4l2_cid_white_balance_temperature(), name: "White Balance Temperature", type: .integer, minimum: 2000, maximum: 6500, step: 1, defaultValue: 4000),
        ControlInfo(id: cv4l2_cid_auto_white_balance(), name: "White Balance, Automatic", type: .boolean, maximum: 1, defaultValue: 1),
        ControlInfo(id: cv4l2_cid_focus_absolute(), name: "Focus, Absolute", type: .integer, minimum: 0, maximum: 250, step: 5),
    ]

    /// A sensor driver with driver-private ids and its own names.
    let vendor: [ControlInfo] = [
        ControlInfo(id: 0x0098_1001, name: "Exposure", type: .integer, minimum: 1, maximum: 1000),
        ControlInfo(id: 0x0098_1002, name: "Analogue Gain", type: .integer, minimum: 0, maximum: 64),
        ControlInfo(id: 0x0098_1003, name: "Gain", type: .integer, minimum: 0, maximum: 10, isReadOnly: true),
        ControlInfo(id: 0x0098_1004, name: "power_line_frequency", type: .menu, minimum: 0, maximum: 2),
    ]

    @Test func standardIDsWin() {
        let map = ControlMapping.resolveAll(uvc)
        #expect(map[.exposure]?.id == cv4l2_cid_exposure_absolute())
        #expect(map[.autoExposure]?.id == cv4l2_cid_exposure_auto())
        #expect(map[.whiteBalanceTemperature]?.id == cv4l2_cid_white_balance_temperature())
        #expect(map[.autoWhiteBalance]?.id == cv4l2_cid_auto_white_balance())
        #expect(map[.focus]?.id == cv4l2_cid_focus_absolute())
        #expect(map[.powerLineFrequency]?.id == cv4l2_cid_power_line_frequency())
        #expect(map[.gain] == nil)
    }

    @Test func namesFindPrivateControlsAndSkipReadOnlyOnes() {
        let map = ControlMapping.resolveAll(vendor)
        #expect(map[.exposure]?.id == 0x0098_1001)
        #expect(map[.gain]?.id == 0x0098_1002)  // "Gain" itself is read-only
        #expect(map[.powerLineFrequency]?.id == 0x0098_1004)
        #expect(map[.focus] == nil)
    }

    @Test func valuesAreClampedOntoRangeAndStep() {
        let focus = uvc.last!
        #expect(focus.clamped(-4) == 0)
        #expect(focus.clamped(13) == 10)
        #expect(focus.clamped(900) == 250)
    }
}
