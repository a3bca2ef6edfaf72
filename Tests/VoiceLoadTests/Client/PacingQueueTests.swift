import Testing
import WSCore

@testable import VoiceLoad

@Suite("The pacing queue of an event loop")
struct PacingQueueTests {
    private static func at(_ ms: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms) * 1_000_000) }

    @Test func givesDueEntriesEarliestFirstAndNothingEarly() {
        var queue = PacingQueue<String>()
        queue.enqueue("a", token: 0, at: Self.at(20))
        queue.enqueue("b", token: 0, at: Self.at(25))
        queue.enqueue("c", token: 0, at: Self.at(30))
        #expect(queue.nextDeadline == Self.at(20))
        #expect(queue.popDue(at: Self.at(19)) == nil)
        #expect(queue.popDue(at: Self.at(26))?.element == "a")
        #expect(queue.popDue(at: Self.at(26))?.element == "b")
        #expect(queue.popDue(at: Self.at(26)) == nil)
        #expect(queue.count == 1 && queue.nextDeadline == Self.at(30))
    }

    @Test func anEarlierDeadlineIsInsertedInOrderAfterItsEquals() {
        var queue = PacingQueue<String>()
        for (name, ms) in [("a", 10), ("b", 20), ("c", 30)] { queue.enqueue(name, token: 1, at: Self.at(Int64(ms))) }
        queue.enqueue("d", token: 2, at: Self.at(20))
        queue.enqueue("e", token: 3, at: Self.at(5))
        var order: [String] = []
        while let entry = queue.popDue(at: Self.at(100)) { order.append(entry.element) }
        #expect(order == ["e", "a", "b", "d", "c"])
        #expect(queue.isEmpty && queue.nextDeadline == nil)
    }

    @Test func tokensTravelWithTheirEntries() {
        var queue = PacingQueue<Int>()
        queue.enqueue(7, token: 41, at: Self.at(1))
        let entry = queue.popDue(at: Self.at(1))
        #expect(entry?.element == 7 && entry?.token == 41)
    }
}

@Suite("When a pacer wakes")
struct PacerWakeDeadlineTests {
    private static func at(_ us: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(us) * 1_000) }

    @Test func theFirstWakeUpIsAtTheEarliestDeadline() {
        var queue = PacingQueue<String>()
        #expect(queue.wakeDeadline(lastWakeAt: nil, minimumIntervalUs: 1_000) == nil)
        queue.enqueue("a", token: 0, at: Self.at(20_040))
        #expect(queue.wakeDeadline(lastWakeAt: nil, minimumIntervalUs: 1_000) == Self.at(20_040))
    }

    @Test func deadlinesCloserThanTheIntervalWaitForIt() {
        var queue = PacingQueue<String>()
        queue.enqueue("a", token: 0, at: Self.at(20_040))
        // Woken at 20 000 µs: the next wake-up is 1 ms later, not 40 µs later.
        #expect(queue.wakeDeadline(lastWakeAt: Self.at(20_000), minimumIntervalUs: 1_000) == Self.at(21_000))
        // Without a floor, the deadline itself.
        #expect(queue.wakeDeadline(lastWakeAt: Self.at(20_000), minimumIntervalUs: 0) == Self.at(20_040))
    }

    @Test func deadlinesFurtherApartThanTheIntervalAreKept() {
        var queue = PacingQueue<String>()
        queue.enqueue("a", token: 0, at: Self.at(40_000))
        #expect(queue.wakeDeadline(lastWakeAt: Self.at(20_000), minimumIntervalUs: 1_000) == Self.at(40_000))
        #expect(
            PacingQueue<String>.wakeDeadline(for: Self.at(21_000), lastWakeAt: Self.at(20_000), minimumIntervalUs: 1_000) == Self.at(21_000)
        )
    }
}
