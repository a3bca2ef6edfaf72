import VoiceLoad
import WSCore

/// A queue of due events on synthetic time: the earliest first, and events due at the same
/// instant in the order they were scheduled. Nothing sleeps and no clock is read.
struct VirtualClock<Event> {
    private struct Due {
        var at: MonotonicInstant
        var sequence: Int
        var event: Event
    }

    private var due: [Due] = []
    private var nextSequence = 0
    /// The instant of the event being handled.
    private(set) var now: MonotonicInstant

    init(origin: MonotonicInstant) {
        now = origin
    }

    var isEmpty: Bool { due.isEmpty }

    /// `event` is due at `at` (never before the current instant).
    mutating func schedule(_ event: Event, at: MonotonicInstant) {
        let entry = Due(at: max(at, now), sequence: nextSequence, event: event)
        nextSequence += 1
        // Binary search for the first entry due strictly later: ties keep their order.
        var low = 0
        var high = due.count
        while low < high {
            let middle = (low + high) / 2
            if due[middle].at <= entry.at { low = middle + 1 } else { high = middle }
        }
        due.insert(entry, at: low)
    }

    /// Takes the next event and moves the clock to its instant.
    mutating func next() -> Event? {
        guard !due.isEmpty else { return nil }
        let entry = due.removeFirst()
        now = entry.at
        return entry.event
    }
}
