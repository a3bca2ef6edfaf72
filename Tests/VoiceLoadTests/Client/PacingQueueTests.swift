import Testing
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
