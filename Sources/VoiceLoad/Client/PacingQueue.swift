import NIOCore
import WSCore

/// The frames due on one event loop, earliest first: a value-type queue that `FramePacer`
/// drives with one timer.
///
/// Every stream of a run has the same frame period and re-queues its next frame one period
/// after the one just due, so new entries almost always belong at the back: appending is
/// O(1), and the rare earlier one is inserted in order. Entries are never removed early; a
/// stream that stops bumps its token and the pacer skips its stale entry when it comes due.
struct PacingQueue<Element> {
    struct Entry {
        var deadline: MonotonicInstant
        var element: Element
        var token: Int
    }

    private var entries = CircularBuffer<Entry>()

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline queued.
    var nextDeadline: MonotonicInstant? { entries.first?.deadline }

    /// Queues `element` (with its stream's current `token`) for `deadline`.
    mutating func enqueue(_ element: Element, token: Int, at deadline: MonotonicInstant) {
        let entry = Entry(deadline: deadline, element: element, token: token)
        guard let last = entries.last, last.deadline > deadline else {
            entries.append(entry)
            return
        }
        // Earlier than the back: after every entry due no later (first come, first served).
        var index = entries.endIndex
        while index > entries.startIndex {
            let before = entries.index(before: index)
            if entries[before].deadline <= deadline { break }
            index = before
        }
        entries.insert(entry, at: index)
    }

    /// When the pacer should wake: at the earliest deadline, but no sooner than
    /// `minimumIntervalUs` after its last wake-up (nil when nothing is queued).
    func wakeDeadline(lastWakeAt: MonotonicInstant?, minimumIntervalUs: Int64) -> MonotonicInstant? {
        nextDeadline.map { Self.wakeDeadline(for: $0, lastWakeAt: lastWakeAt, minimumIntervalUs: minimumIntervalUs) }
    }

    /// When the pacer should wake for `deadline`, given its last wake-up.
    static func wakeDeadline(for deadline: MonotonicInstant, lastWakeAt: MonotonicInstant?, minimumIntervalUs: Int64) -> MonotonicInstant {
        guard let lastWakeAt else { return deadline }
        return max(deadline, lastWakeAt.advanced(byMicroseconds: minimumIntervalUs))
    }

    /// Takes the earliest entry if it is due by `now`.
    mutating func popDue(at now: MonotonicInstant) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        return entries.removeFirst()
    }
}
