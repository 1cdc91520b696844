@testable import Camera
import Testing

@Suite("Stream statistics")
struct StreamStatisticsTests {
    @Test func gapsInTheSequenceCountAsDroppedFrames() {
        var stats = StreamStatistics()
        for sequence: UInt32 in [7, 8, 9, 12, 13, 20] { stats.record(sequence: sequence) }
        #expect(stats.framesDelivered == 6)
        #expect(stats.framesDropped == 2 + 6)
        #expect(stats.lastSequence == 20)
    }

    @Test func aRestartedStreamStartsCountingAfresh() {
        var stats = StreamStatistics()
        stats.record(sequence: 100)
        stats.lastSequence = nil  // what startStreaming does
        stats.record(sequence: 0)
        stats.record(sequence: 1)
        #expect(stats.framesDropped == 0)
    }
}
