import NIOCore
import Synchronization
import WSCore

/// Starts the virtual clients of a run on schedule and waits for all of them: the executor of
/// each load model.
package enum Swarm {
    /// An open model's start more than this late against its schedule is dropped as `late`:
    /// the generator is behind, and starting it anyway would hide that.
    package static let lateStartLimitMs: Int64 = 1_000

    /// Runs `load` with `plan` on `group`'s event loops; every measurement goes to `recorder`.
    /// Every client is registered in `sessions`, which no session starts without and whose
    /// wind-down reaches every client. A time-bounded closed model stops starting sessions at
    /// `end` (its duration when nil). Returns when every session has finished.
    package static func run(
        plan: SessionPlan,
        load: LoadProfile,
        recorder: Recorder,
        group: any EventLoopGroup,
        startedAt: MonotonicInstant = .now(),
        sessions: OpenSessions = OpenSessions(),
        end: RunEnd? = nil
    ) async {
        switch load.model {
        case .closed:
            let end = end ?? RunEnd(load: load, startedAt: startedAt)
            await runClosed(plan: plan, load: load, recorder: recorder, group: group, startedAt: startedAt, sessions: sessions, end: end)
        case .stagedClients(let stages):
            await runStaged(
                plan: plan,
                stages: stages,
                segment: load.segment,
                retryBackoff: load.retryBackoff,
                recorder: recorder,
                group: group,
                startedAt: startedAt,
                sessions: sessions
            )
        case .arrivals(let arrivals):
            await runArrivals(
                plan: plan,
                arrivals: arrivals,
                segment: load.segment,
                recorder: recorder,
                group: group,
                startedAt: startedAt,
                sessions: sessions
            )
        }
    }

    /// Closed: each client starts at its ramp-up offset and runs sessions back to back.
    private static func runClosed(
        plan: SessionPlan,
        load: LoadProfile,
        recorder: Recorder,
        group: any EventLoopGroup,
        startedAt: MonotonicInstant,
        sessions: OpenSessions,
        end: RunEnd
    ) async {
        let clients = ClientFactory(plan: plan, recorder: recorder, group: group, sessions: sessions)
        let iterations = load.iterations
        let retryBackoff = load.retryBackoff
        await withDiscardingTaskGroup { tasks in
            for index in load.ownClients {
                let eventLoop = group.next()
                let startAt = startedAt.advanced(byMilliseconds: Int64(load.startOffsetMs(ofClient: index)))
                tasks.addTask {
                    await sessions.sleep(until: startAt, on: eventLoop)
                    guard let client = clients.registeredClient(index: index, on: eventLoop) else { return }
                    var backoff = clients.backoff(retryBackoff, client: index)
                    _ = await runBackToBack(client, from: 0, scheduledAt: startAt, sessions: sessions, backoff: &backoff) { iteration in
                        shouldStart(iteration: iteration, iterations: iterations, stopStartingAt: end.stopStartingAt)
                    }
                    sessions.leave(client)
                }
            }
        }
    }

    /// Staged clients: client slot k runs sessions back to back while the target is above k.
    private static func runStaged(
        plan: SessionPlan,
        stages: StageList,
        segment: LoadSegment,
        retryBackoff: RetryBackoff,
        recorder: Recorder,
        group: any EventLoopGroup,
        startedAt: MonotonicInstant,
        sessions: OpenSessions
    ) async {
        let clients = ClientFactory(plan: plan, recorder: recorder, group: group, sessions: sessions)
        let slots = Int(stages.peak.rounded(.up))
        await withDiscardingTaskGroup { tasks in
            for slot in segment.share(of: slots) {
                let intervals = stages.activeIntervalsMs(ofSlot: slot)
                guard !intervals.isEmpty else { continue }
                let eventLoop = group.next()
                tasks.addTask {
                    guard let client = clients.registeredClient(index: slot, on: eventLoop) else { return }
                    var iteration = 0
                    var backoff = clients.backoff(retryBackoff, client: slot)
                    for interval in intervals {
                        let begin = startedAt.advanced(byMicroseconds: Int64(interval.lowerBound * 1_000))
                        let end = startedAt.advanced(byMicroseconds: Int64(interval.upperBound * 1_000))
                        await sessions.sleep(until: begin, on: eventLoop)
                        iteration = await runBackToBack(client, from: iteration, scheduledAt: begin, sessions: sessions, backoff: &backoff)
                        { _ in
                            .now() < end
                        }
                    }
                    sessions.leave(client)
                }
            }
        }
    }

    /// Open: sessions start on the arrival schedule; a start beyond the in-flight limit, or
    /// one the generator reaches too late, is dropped and counted.
    private static func runArrivals(
        plan: SessionPlan,
        arrivals: ArrivalPlan,
        segment: LoadSegment,
        recorder: Recorder,
        group: any EventLoopGroup,
        startedAt: MonotonicInstant,
        sessions: OpenSessions
    ) async {
        let clients = ClientFactory(plan: plan, recorder: recorder, group: group, sessions: sessions)
        var schedule = ArrivalSchedule(rates: arrivals.rates, process: arrivals.process, seed: arrivals.seed, segment: segment)
        let limit = segment.part(of: arrivals.maxInFlight)
        let inFlight = InFlightSessions(limit: limit)
        let scheduler = group.next()
        await withDiscardingTaskGroup { tasks in
            var number = 0
            while let offsetMs = schedule.next() {
                let dueAt = startedAt.advanced(byMicroseconds: Int64(offsetMs * 1_000))
                let clientIndex = number * segment.count + segment.index
                number += 1
                await sessions.sleep(until: dueAt, on: scheduler)
                if sessions.isWindingDown { break }  // the schedule's remaining starts are not made
                if MonotonicInstant.now().microseconds(since: dueAt) > lateStartLimitMs * 1_000 {
                    recorder.recordDroppedStart(reason: .late)
                    continue
                }
                guard inFlight.admit() else {
                    recorder.recordDroppedStart(reason: .maxInFlight)
                    continue
                }
                let eventLoop = group.next()
                tasks.addTask {
                    if let client = clients.registeredClient(index: clientIndex, on: eventLoop) {
                        await client.runSession(iteration: 0, scheduledAt: dueAt)
                        sessions.leave(client)
                    }
                    inFlight.leave()
                }
            }
        }
    }

    /// Sessions one after another while `goOn(iteration)` holds and the run is not winding
    /// down, the first due at `scheduledAt` and each next one as the previous ends, or after
    /// `backoff`'s wait when it failed before it was ready. Returns the next iteration number.
    @inline(never)
    private static func runBackToBack(
        _ client: VirtualClient,
        from first: Int,
        scheduledAt: MonotonicInstant,
        sessions: OpenSessions,
        backoff: inout ClientBackoff,
        while goOn: (Int) -> Bool
    ) async -> Int {
        var iteration = first
        var scheduledAt = scheduledAt
        while !sessions.isWindingDown, goOn(iteration) {
            let gotReady = await client.runSession(iteration: iteration, scheduledAt: scheduledAt)
            iteration += 1
            scheduledAt = MonotonicInstant.now().advanced(byMilliseconds: Int64(backoff.waitMs(afterSessionGotReady: gotReady)))
            await sessions.sleep(until: scheduledAt, on: client.eventLoop)
        }
        return iteration
    }

    private static func shouldStart(iteration: Int, iterations: Int, stopStartingAt: MonotonicInstant?) -> Bool {
        if let stopStartingAt { return MonotonicInstant.now() < stopStartingAt }
        return iteration < iterations
    }
}

/// Makes the clients of a run. A client's task captures this one object, not the plan: an
/// async task keeps its captures and the values it builds in its frame, which held copies of
/// the plan (736 bytes) and the load, about 6 KB a client in all (BENCHMARKS.md, "Memory per
/// session"). `registeredClient` is kept out of line so its temporaries stay on the thread's
/// stack instead of in every client's frame.
private final class ClientFactory: Sendable {
    let plan: SessionPlan
    let recorder: Recorder
    let pacers: FramePacers
    let sessions: OpenSessions

    init(plan: SessionPlan, recorder: Recorder, group: any EventLoopGroup, sessions: OpenSessions) {
        self.plan = plan
        self.recorder = recorder
        self.pacers = FramePacers(group: group)
        self.sessions = sessions
    }

    /// Client `index` on `eventLoop`, registered in the run's open sessions; nil when the run
    /// is winding down and starts no session.
    @inline(never)
    func registeredClient(index: Int, on eventLoop: any EventLoop) -> VirtualClient? {
        let client = VirtualClient(index: index, plan: plan, recorder: recorder, eventLoop: eventLoop, pacers: pacers)
        return sessions.register(client) ? client : nil
    }

    @inline(never)
    func backoff(_ policy: RetryBackoff, client: Int) -> ClientBackoff {
        ClientBackoff(policy, seed: plan.scenario.seed, client: client)
    }
}

/// Open sessions of an open model, against its limit.
final class InFlightSessions: Sendable {
    private let count = Mutex(0)
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a place if one is free.
    func admit() -> Bool {
        count.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    func leave() {
        count.withLock { $0 -= 1 }
    }
}
