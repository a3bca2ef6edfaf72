import Synchronization
import WSCore

/// What one event loop records per frame: the frames its clients sent, their send lag, and how
/// late the loop read its receive-lag probe. One per loop of a run (`Recorder.loopRecorder(for:)`),
/// written only by that loop's thread.
///
/// A frame's figures used to go to the run's `Recorder` under its one process-wide lock, with a
/// dictionary lookup of the histogram: with several loops, every frame of every loop queued on
/// that lock. Here each loop has state of its own. Its lock is taken by the loop for each frame
/// and, four times a second, by whoever reads the figures (the live progress, the report), so
/// no loop ever waits for another; the lock stays so that a reader off the loops (a forced exit
/// while a loop is stuck) can still read. The report adds the loops' histograms together, which
/// HDR histograms do without loss.
package final class LoopRecorder: Sendable {
    /// The figures of one loop, or of several added together.
    package struct Figures: Sendable {
        package var framesSent = 0
        /// `send_lag_ms`, frames sent within the warm-up left out.
        package var sendLag = LatencyHistogram()
        /// `receive_lag_ms`, probe reads within the warm-up left out.
        package var receiveLag = LatencyHistogram()

        package init() {}

        package mutating func add(_ other: Figures) {
            framesSent += other.framesSent
            if other.sendLag.count > 0 { sendLag.add(other.sendLag) }
            if other.receiveLag.count > 0 { receiveLag.add(other.receiveLag) }
        }
    }

    private let figures = Mutex(Figures())
    /// The end of the run's warm-up: what is sent or read before it is not measured.
    private let warmupEndsAt: MonotonicInstant?

    package init(warmupEndsAt: MonotonicInstant?) {
        self.warmupEndsAt = warmupEndsAt
    }

    /// One paced frame sent at `sentAt`, `lagUs` after its deadline. Every frame counts in
    /// `framesSent`; one sent within the warm-up is left out of `send_lag_ms`, as the warm-up's
    /// sessions and turns are left out of theirs.
    package func recordFrameSent(lagUs: Int64, sentAt: MonotonicInstant) {
        let steady = warmupEndsAt.map { sentAt >= $0 } ?? true
        figures.withLock {
            $0.framesSent += 1
            if steady { $0.sendLag.record(microseconds: lagUs) }
        }
    }

    /// The lags of one read of the loop's receive-lag probe (none within the warm-up).
    package func recordReceiveLags(_ lagsUs: [Int64], readAt: MonotonicInstant) {
        if let warmupEndsAt, readAt < warmupEndsAt { return }
        figures.withLock {
            for lagUs in lagsUs { $0.receiveLag.record(microseconds: lagUs) }
        }
    }

    /// Adds this loop's figures so far to `total`.
    func add(to total: inout Figures) {
        figures.withLock { total.add($0) }
    }
}
