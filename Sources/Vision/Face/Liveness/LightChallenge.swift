/// The station's own light as a challenge: the LED switched on and off in a random order
/// chosen for each journey, a slot of a few frames at a time. A face in front of the
/// camera answers it at once; a video cannot know it in advance.
public struct LightChallenge: Hashable, Sendable, Codable {
    /// The LED's state in each slot, in order.
    public var slots: [Bool]
    /// Camera frames each slot lasts.
    public var framesPerSlot: Int

    public init(slots: [Bool], framesPerSlot: Int) {
        self.slots = slots
        self.framesPerSlot = max(1, framesPerSlot)
    }

    /// A random challenge of `count` slots: it starts dark, has at least a third of its
    /// slots lit and a third dark, and never keeps one state for more than two slots, so
    /// every lit slot has a dark one near it to be compared with.
    public static func random(slots count: Int = 10, framesPerSlot: Int = 3, using generator: inout some RandomNumberGenerator) -> LightChallenge {
        let count = max(4, count)
        while true {
            var slots = [false]
            while slots.count < count {
                let run = slots.suffix(2)
                if run.count == 2, run.allSatisfy({ $0 == run.last }) {
                    slots.append(!run.last!)
                } else {
                    slots.append(Bool.random(using: &generator))
                }
            }
            let lit = slots.filter { $0 }.count
            if lit >= count / 3, count - lit >= count / 3 { return LightChallenge(slots: slots, framesPerSlot: framesPerSlot) }
        }
    }

    /// Frames the whole challenge lasts.
    public var frameCount: Int { slots.count * framesPerSlot }

    /// The LED's state during frame `index` of the challenge; nil past its end.
    public func state(atFrame index: Int) -> Bool? {
        guard index >= 0, index < frameCount else { return nil }
        return slots[index / framesPerSlot]
    }
}
