import NIOCore
import WSCore

/// A stream paced by a `FramePacer`: a virtual client's microphone, the simulator's reply audio.
package protocol PacedStream: AnyObject, Sendable {
    /// Called on the pacer's event loop once the deadline queued with `token` has come.
    func pacingDue(token: Int)
}

/// Paces the streams of one event loop with a single timer, and wakes the loop at most once
/// per `minimumWakeIntervalUs`.
///
/// A timer per stream and frame cost an allocation, a promise and two heap operations in
/// NIO's scheduler each time (50 times a second per stream at 20 ms frames); profiles showed
/// the heap's reference counting alone at 5 % of the generator's CPU. Here each stream
/// queues its next deadline (`PacingQueue`) and one NIO timer, set for the earliest, fires
/// every frame that is due. A frame is sent when its own deadline has come, never earlier.
///
/// Each wake-up of the loop costs a timer and an `epoll_wait` round trip. With many streams
/// the deadlines are microseconds apart, so the pacer wakes no sooner than
/// `minimumWakeIntervalUs` after its last wake-up and sends everything due by then
/// (`PacingQueue.wakeDeadline`): a frame waits at most that long more, which its send lag
/// shows. With few streams, whose deadlines are further apart, nothing changes. The default,
/// 250 µs, came from A/B runs at 300 sessions (BENCHMARKS.md): it cost no tail latency and
/// saved a little CPU on both sides; 1 ms saved a fifth of the tester's CPU, but with bursts
/// of 15 writes at a time the send-lag p99 went from 3.72 to 6.65 ms (medians of the runs).
///
/// The timer is a scheduled callback (`NIOScheduledCallbackHandler`), which NIO's own loops run
/// without the promise and future of a scheduled task: 4.5 thousand instructions an arming
/// before, fewer after (BENCHMARKS.md, "Instructions per frame").
///
/// Used on its event loop only (as the streams that share it are): that is what makes it
/// `Sendable`.
package final class FramePacer: NIOScheduledCallbackHandler, @unchecked Sendable {
    /// The default floor between wake-ups.
    package static let defaultMinimumWakeIntervalUs: Int64 = 250

    let eventLoop: any EventLoop
    let minimumWakeIntervalUs: Int64
    private var queue = PacingQueue<any PacedStream>()
    private var timer: NIOScheduledCallback?
    private var timerDeadline: MonotonicInstant?
    private var lastWakeAt: MonotonicInstant?
    private var firing = false

    package init(eventLoop: any EventLoop, minimumWakeIntervalUs: Int64 = FramePacer.defaultMinimumWakeIntervalUs) {
        self.eventLoop = eventLoop
        self.minimumWakeIntervalUs = minimumWakeIntervalUs
    }

    /// Calls `stream.pacingDue(token:)` on the loop once `deadline` has come.
    package func schedule(_ stream: any PacedStream, token: Int, at deadline: MonotonicInstant) {
        eventLoop.preconditionInEventLoop()
        queue.enqueue(stream, token: token, at: deadline)
        guard !firing else { return }  // `fire` arms the timer when it is done
        // Re-arm only when the new deadline moves the wake-up earlier.
        let wake = queue.wakeDeadline(lastWakeAt: lastWakeAt, minimumIntervalUs: minimumWakeIntervalUs)
        if let wake, timerDeadline.map({ wake < $0 }) ?? true { arm() }
    }

    private func arm() {
        timer?.cancel()
        timer = nil
        timerDeadline = queue.wakeDeadline(lastWakeAt: lastWakeAt, minimumIntervalUs: minimumWakeIntervalUs)
        guard let deadline = timerDeadline else { return }
        // Fails only on a loop that is shutting down, where nothing is paced any more.
        timer = try? eventLoop.scheduleCallback(at: deadline.deadline, handler: self)
    }

    package func handleScheduledCallback(eventLoop: some EventLoop) {
        fire()
    }

    private func fire() {
        timer = nil
        timerDeadline = nil
        firing = true
        lastWakeAt = .now()
        while let entry = queue.popDue(at: .now()) {
            entry.element.pacingDue(token: entry.token)
        }
        firing = false
        arm()
    }
}

/// One `FramePacer` per event loop of a group.
package struct FramePacers: Sendable {
    private let pacers: [ObjectIdentifier: FramePacer]

    package init(group: any EventLoopGroup) {
        var pacers: [ObjectIdentifier: FramePacer] = [:]
        for loop in group.makeIterator() { pacers[ObjectIdentifier(loop)] = FramePacer(eventLoop: loop) }
        self.pacers = pacers
    }

    /// The pacer of `eventLoop` (a new one when the loop is not the group's).
    package func pacer(for eventLoop: any EventLoop) -> FramePacer {
        pacers[ObjectIdentifier(eventLoop)] ?? FramePacer(eventLoop: eventLoop)
    }
}
