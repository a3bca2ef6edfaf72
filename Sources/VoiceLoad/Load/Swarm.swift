import NIOCore

/// Starts the virtual clients of a run on schedule and waits for all of them.
public enum Swarm {
    /// Runs `load` with `plan` on `group`'s event loops; every measurement goes to `recorder`.
    /// Returns when every client has finished its last session.
    public static func run(
        plan: SessionPlan, load: LoadProfile, recorder: Recorder, group: any EventLoopGroup,
        startedAt: MonotonicInstant = .now()
    ) async {
        let stopStartingAt = load.durationMs.map { startedAt.advanced(byMilliseconds: Int64($0)) }
        await withTaskGroup(of: Void.self) { tasks in
            for index in 0..<load.clients {
                let eventLoop = group.next()
                let startAt = startedAt.advanced(byMilliseconds: Int64(load.startOffsetMs(ofClient: index)))
                tasks.addTask {
                    await sleep(until: startAt, on: eventLoop)
                    let client = VirtualClient(index: index, plan: plan, recorder: recorder, eventLoop: eventLoop)
                    var iteration = 0
                    while shouldStart(iteration: iteration, load: load, stopStartingAt: stopStartingAt) {
                        await client.runSession(iteration: iteration)
                        iteration += 1
                    }
                }
            }
        }
    }

    private static func shouldStart(iteration: Int, load: LoadProfile, stopStartingAt: MonotonicInstant?) -> Bool {
        if let stopStartingAt { return MonotonicInstant.now() < stopStartingAt }
        return iteration < load.iterations
    }

    private static func sleep(until instant: MonotonicInstant, on eventLoop: any EventLoop) async {
        guard instant > .now() else { return }
        try? await eventLoop.scheduleTask(deadline: instant.deadline) {}.futureResult.get()
    }
}
