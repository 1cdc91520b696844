/// Whether the analysis keeps up with the camera: the median time of the last frames'
/// analysis against the slowest pace automatic capture can work at. When it falls behind
/// (a slow CPU, a camera at a high resolution), the capture says so once and the journey
/// switches to its fallback, the manual mode (the seeds' `fallback(lowPerformance)`).
struct AnalysisPace {
    /// Analysed frames per second under which automatic capture is given up.
    let minimumFramesPerSecond: Int
    /// Frames the median is taken over.
    let window: Int
    private var recent: [Duration] = []
    private var reported = false

    init(minimumFramesPerSecond: Int = 4, window: Int = 15) {
        self.minimumFramesPerSecond = max(1, minimumFramesPerSecond)
        self.window = max(3, window)
    }

    /// Records one frame's analysis time; true the first time the pace falls under the floor.
    mutating func record(_ duration: Duration) -> Bool {
        recent.append(duration)
        if recent.count > window { recent.removeFirst(recent.count - window) }
        guard !reported, recent.count == window else { return false }
        let median = recent.sorted()[window / 2]
        guard median > .seconds(1) / minimumFramesPerSecond else { return false }
        reported = true
        return true
    }
}
