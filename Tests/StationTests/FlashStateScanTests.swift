import Flash
import ScanFlow
import Station
import Testing

@Suite("The flash's states in the seeds' vocabulary")
struct FlashStateScanTests {
    @Test func switchesAreTheSeedsFlashUpdates() {
        #expect(FlashState.on.scanState == .on)
        #expect(FlashState.off.scanState == .off)
        #expect(Scan.Update.flash(FlashState.on.scanState) == .flash(.on))
        #expect(Scan.Update.flash(FlashState.off.scanState) == .flash(.off))
        #expect(FlashState.allCases.map(\.scanState) == Scan.FlashState.allCases)
    }
}
