import NIOCore

/// Paces the audio streams of every virtual client on one event loop with a single timer.
///
/// A timer per client and frame cost an allocation, a promise and two heap operations in
/// NIO's scheduler each time (50 times a second per client at 20 ms frames); profiles showed
/// the heap's reference counting alone at 5 % of the generator's CPU. Here each client
/// queues its next deadline (`PacingQueue`) and one NIO timer, set for the earliest, fires
/// every frame that is due. Deadlines and the lag of each frame are unchanged: a frame is
/// sent when its own deadline has come, never earlier.
///
/// Used on its event loop only (as the clients that share it are): that is what makes it
/// `Sendable`.
final class FramePacer: @unchecked Sendable {
    let eventLoop: any EventLoop
    private var queue = PacingQueue<VirtualClient>()
    private var timer: Scheduled<Void>?
    private var timerDeadline: MonotonicInstant?
    private var firing = false

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Calls `client.pacingDue(token:)` on the loop once `deadline` has come.
    func schedule(_ client: VirtualClient, token: Int, at deadline: MonotonicInstant) {
        eventLoop.preconditionInEventLoop()
        queue.enqueue(client, token: token, at: deadline)
        if !firing, timerDeadline.map({ deadline < $0 }) ?? true { arm() }
    }

    private func arm() {
        timer?.cancel()
        timer = nil
        timerDeadline = queue.nextDeadline
        guard let deadline = timerDeadline else { return }
        timer = eventLoop.scheduleTask(deadline: deadline.deadline) { [self] in fire() }
    }

    private func fire() {
        timer = nil
        timerDeadline = nil
        firing = true
        while let entry = queue.popDue(at: .now()) {
            entry.element.assumeIsolated { $0.pacingDue(token: entry.token) }
        }
        firing = false
        arm()
    }
}

/// One `FramePacer` per event loop of a group.
public struct FramePacers: Sendable {
    private let pacers: [ObjectIdentifier: FramePacer]

    public init(group: any EventLoopGroup) {
        var pacers: [ObjectIdentifier: FramePacer] = [:]
        for loop in group.makeIterator() { pacers[ObjectIdentifier(loop)] = FramePacer(eventLoop: loop) }
        self.pacers = pacers
    }

    /// The pacer of `eventLoop` (a new one when the loop is not the group's).
    func pacer(for eventLoop: any EventLoop) -> FramePacer {
        pacers[ObjectIdentifier(eventLoop)] ?? FramePacer(eventLoop: eventLoop)
    }
}
