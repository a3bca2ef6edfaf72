import NIOCore
import NIOPosix
import Synchronization
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Run interruption: signals, wind-down, open sessions", .timeLimit(.minutes(1)))
struct RunInterruptionTests {
    private let now = MonotonicInstant(nanoseconds: 5_000_000_000)

    @Test("the first signal winds down with a deadline grace later; a second forces the exit with its own code")
    func stateMachine() {
        var state = RunInterruption.State()
        #expect(state.phase == .running && state.signal == nil && state.deadline == nil)
        let deadline = now.advanced(byMilliseconds: 5_000)
        #expect(state.receive(.sigint, at: now, graceMs: 5_000) == .windDown(deadline: deadline))
        #expect(state.phase == .windingDown(signal: .sigint, deadline: deadline))
        #expect(state.signal == .sigint && state.deadline == deadline)
        #expect(state.receive(.sigterm, at: now.advanced(byMilliseconds: 100), graceMs: 5_000) == .exitNow(code: 143))
        #expect(state.phase == .forced(signal: .sigint))
        #expect(state.signal == .sigint && state.deadline == nil)
        #expect(state.receive(.sigint, at: now, graceMs: 5_000) == .exitNow(code: 130))
        #expect(state.phase == .forced(signal: .sigint))
    }

    @Test("SIGTERM first: interrupted by SIGTERM; exit codes are 128 + the signal number")
    func sigtermFirst() {
        var state = RunInterruption.State()
        #expect(state.receive(.sigterm, at: now, graceMs: 0) == .windDown(deadline: now))
        #expect(state.signal == .sigterm)
        #expect(InterruptSignal.sigint.exitCode == 130 && InterruptSignal.sigterm.exitCode == 143)
        #expect(InterruptSignal.allCases.map(\.rawValue) == ["SIGINT", "SIGTERM"])
    }

    @Test("observers hear the deadline once: at the signal, or at once when they come later; removed ones do not")
    func observers() {
        let interruption = RunInterruption(graceMs: 2_000)
        let heard = Mutex<[String]>([])
        let early = interruption.observeWindDown { _ in heard.withLock { $0.append("early") } }
        let removed = interruption.observeWindDown { _ in heard.withLock { $0.append("removed") } }
        interruption.stopObserving(removed)
        #expect(heard.withLock { $0 }.isEmpty)
        guard case .windDown(let deadline) = interruption.receive(.sigint, at: now) else {
            Issue.record("the first signal must wind down")
            return
        }
        #expect(deadline == now.advanced(byMilliseconds: 2_000))
        #expect(heard.withLock { $0 } == ["early"])
        let late = Mutex<MonotonicInstant?>(nil)
        interruption.observeWindDown { deadline in late.withLock { $0 = deadline } }
        #expect(late.withLock { $0 } == deadline)
        interruption.stopObserving(early)
        #expect(interruption.receive(.sigint) == .exitNow(code: 130))
        #expect(heard.withLock { $0 } == ["early"])  // a forced exit is not a second wind-down
        #expect(interruption.signal == .sigint)
    }

    @Test("a forced exit runs the writer the run set, and nothing once it is cleared")
    func forcedExitReport() {
        let interruption = RunInterruption()
        let writes = Atomic(0)
        interruption.writeForcedExitReport()
        interruption.setForcedExitReport { writes.add(1, ordering: .relaxed) }
        interruption.writeForcedExitReport()
        interruption.setForcedExitReport(nil)
        interruption.writeForcedExitReport()
        #expect(writes.load(ordering: .relaxed) == 1)
        #expect(interruption.graceMs == RunInterruption.defaultGraceMs)
    }

    @Test("open sessions: registered clients hear the wind-down, later ones may not start, the deadline only moves forward")
    func openSessions() async {
        let sessions = OpenSessions()
        let first = DeadlineListener()
        let second = DeadlineListener()
        #expect(sessions.register(first) && sessions.register(second))
        sessions.leave(second)
        #expect(sessions.count == 1 && !sessions.isWindingDown)
        let deadline = now.advanced(byMilliseconds: 3_000)
        sessions.windDown(deadline: deadline)
        #expect(sessions.isWindingDown && sessions.deadline == deadline)
        #expect(await first.next() == deadline)
        #expect(!sessions.register(DeadlineListener()))
        sessions.windDown(deadline: deadline.advanced(byMilliseconds: 1_000))
        #expect(sessions.deadline == deadline)
        #expect(await first.next() == deadline)  // told again, with the earlier deadline
        sessions.windDown(deadline: now)
        #expect(await first.next() == now)
        #expect(await second.heard.isEmpty)
        // Once the run is over (closed), a wind-down reaches no client.
        await sessions.close()
        sessions.windDown(deadline: now.advanced(byMilliseconds: -1))
        #expect(await first.heard.count == 3)
    }

    @Test("a sleep until a start an hour away wakes when the run winds down; after it, sleeps return at once")
    func sleepWakes() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let sessions = OpenSessions()
        let loop = group.next()
        async let slept: Void = sessions.sleep(until: .now().advanced(byMilliseconds: 3_600_000), on: loop)
        // The sleeper is registered on the loop's schedule; wind down once it is (or before: the
        // sleep then returns at once, which is the same outcome).
        try await loop.submit {}.get()
        sessions.windDown(deadline: .now())
        await slept
        await sessions.sleep(until: .now().advanced(byMilliseconds: 3_600_000), on: loop)
        try await group.shutdownGracefully()
    }
}

/// A wind-down target that remembers each deadline it is given.
actor DeadlineListener: WindDownTarget {
    private(set) var heard: [MonotonicInstant] = []
    private var waiting: [CheckedContinuation<MonotonicInstant, Never>] = []
    private var consumed = 0

    func windDown(deadline: MonotonicInstant) {
        heard.append(deadline)
        if !waiting.isEmpty {
            consumed += 1
            waiting.removeFirst().resume(returning: deadline)
        }
    }

    /// The next deadline not yet returned.
    func next() async -> MonotonicInstant {
        if consumed < heard.count {
            consumed += 1
            return heard[consumed - 1]
        }
        return await withCheckedContinuation { waiting.append($0) }
    }
}
