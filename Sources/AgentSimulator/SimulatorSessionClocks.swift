import NIOCore
import VoiceLoad
import WSCore

/// The clocks of one simulated session, kept the same way by both of the simulator's drivers
/// (`SimulatorConnection` over WebSocket, `SimulatorWebRTCCall` over WebRTC): the reply audio's
/// next chunk or packet (`Timer.nextChunk`, 25–50 a second per speaking session) is paced by the
/// loop's `FramePacer`, one NIO timer for every session on the loop; the other timers, a few a
/// turn, are NIO timers, so a reply's first chunk leaves exactly when its latency is up. Used on
/// the session's event loop only.
struct SimulatorSessionClocks {
    private let eventLoop: any EventLoop
    private let pacer: FramePacer
    private var timers: [SimulatorSession.Timer: Scheduled<Void>] = [:]
    /// Counts `nextChunk` schedules: a deadline queued with the pacer under an older one is stale.
    private var chunkToken = 0

    init(eventLoop: any EventLoop, pacer: FramePacer) {
        self.eventLoop = eventLoop
        self.pacer = pacer
    }

    /// Runs `action` when it is a `schedule` or a `cancel`, and says whether it was: a due
    /// `nextChunk` calls `stream.pacingDue(token:)`, any other timer `stream.timerDue(_:)`.
    mutating func perform(_ action: SimulatorSession.Action, for stream: some SimulatorClockedStream) -> Bool {
        switch action {
        case .schedule(.nextChunk, let at):
            chunkToken += 1
            pacer.schedule(stream, token: chunkToken, at: at)
        case .cancel(.nextChunk):
            chunkToken += 1
        case .schedule(let timer, let at):
            timers[timer]?.cancel()
            timers[timer] = eventLoop.assumeIsolated().scheduleTask(deadline: at.deadline) { stream.timerDue(timer) }
        case .cancel(let timer):
            timers.removeValue(forKey: timer)?.cancel()
        default:
            return false
        }
        return true
    }

    /// Whether the pacer's call with `token` is for the chunk queued last (not a stale one).
    func isCurrent(chunkToken token: Int) -> Bool { token == chunkToken }

    /// A timer fired: it is pending no more.
    mutating func fired(_ timer: SimulatorSession.Timer) { timers[timer] = nil }

    /// The session is over: every timer is cancelled and any chunk queued with the pacer is stale.
    mutating func stop() {
        chunkToken += 1
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
    }
}

/// A simulator driver whose session's clocks `SimulatorSessionClocks` keeps.
protocol SimulatorClockedStream: PacedStream {
    /// Called on the session's event loop once `timer` (any but `nextChunk`) is due.
    func timerDue(_ timer: SimulatorSession.Timer)
}
