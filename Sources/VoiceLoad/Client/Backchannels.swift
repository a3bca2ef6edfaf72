import WSCore

/// The backchannels of one call attempt (docs/metrics.md, "Backchannels"): short clips the
/// caller speaks over the agent's answer without meaning to interrupt it, and whether the agent
/// stopped for each. A value-type part of `TurnTracker`, which tells it what the agent did.
package struct Backchannels: Sendable, Hashable {
    /// One backchannel over agent turn `turnNumber`, waiting for that turn to end.
    struct Event: Sendable, Hashable {
        let turnNumber: Int
        /// The clip's speech start.
        let startedAt: MonotonicInstant
        /// The end of its stop window (cut short by a later barge-in).
        var windowEndsAt: MonotonicInstant
        /// The dialect's interruption signal came within the window.
        var signalled = false
    }

    /// A turn's backchannels and how many of them stopped the agent (a row's, or a session's).
    package struct Count: Sendable, Hashable {
        package var spoken = 0
        package var stopped = 0

        package init(spoken: Int = 0, stopped: Int = 0) {
            self.spoken = spoken
            self.stopped = stopped
        }

        /// `false_barge_in_rate`: stopped ÷ spoken, in percent; nil with none spoken.
        package var ratePercent: Double? {
            spoken > 0 ? Double(stopped) / Double(spoken) * 100 : nil
        }
    }

    /// Every backchannel of the attempt, and those that stopped the agent so far (one waiting
    /// for its turn to end counts as spoken only).
    package private(set) var total = Count()
    private var open: [Event] = []

    package init() {}

    /// A backchannel's speech starts at `at` over agent turn `turnNumber`; nil when no agent
    /// turn is open (its audio had all arrived): nothing is left to stop.
    mutating func started(at: MonotonicInstant, over turnNumber: Int?, stopWindowMs: Int) {
        total.spoken += 1
        guard let turnNumber else { return }
        open.append(Event(turnNumber: turnNumber, startedAt: at, windowEndsAt: at.advanced(byMilliseconds: Int64(stopWindowMs))))
    }

    /// The dialect's interruption signal arrived at `at` while the agent was audible.
    mutating func interruptionSignalled(at: MonotonicInstant) {
        for index in open.indices where open[index].startedAt <= at && at <= open[index].windowEndsAt {
            open[index].signalled = true
        }
    }

    /// A barge-in starts at `at`: what the agent does from then on answers it, not a backchannel.
    mutating func bargeInStarted(at: MonotonicInstant) {
        for index in open.indices { open[index].windowEndsAt = min(open[index].windowEndsAt, at) }
    }

    /// Agent turn `turnNumber` ended by `cause` (nil: its row was closed before it ended), its
    /// last chunk having arrived at `lastAudioAt`. Each of its backchannels stopped the agent
    /// when the interruption signal came within its window, or when the turn ended by a quiet
    /// gap (not by its end-of-turn event: the reply was not finished) and its last chunk arrived
    /// within the window. Returns the turn's count.
    mutating func turnEnded(_ turnNumber: Int, by cause: TurnEndCause?, lastAudioAt: MonotonicInstant) -> Count {
        var count = Count()
        open.removeAll { event in
            guard event.turnNumber == turnNumber else { return false }
            count.spoken += 1
            let cutOff = cause == .quietGap && event.startedAt <= lastAudioAt && lastAudioAt <= event.windowEndsAt
            if event.signalled || cutOff { count.stopped += 1 }
            return true
        }
        total.stopped += count.stopped
        return count
    }
}

extension TurnRecord {
    /// The row with its turn's backchannels.
    func with(_ backchannels: Backchannels.Count) -> TurnRecord {
        var row = self
        row.backchannels = backchannels.spoken
        row.backchannelsStopped = backchannels.stopped
        return row
    }
}
