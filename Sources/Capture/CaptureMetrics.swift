/// What the captures count, for whoever keeps the station's metrics (labels carry no personal data).
public protocol CaptureMetrics: Sendable {
    /// A camera run ended having delivered `count` frames, `dropped` lost on the way.
    func framesProcessed(_ count: Int, dropped: Int)
    /// A chip read completed.
    func chipRead(duration: Duration, commands: Int, bytes: Int)
}
