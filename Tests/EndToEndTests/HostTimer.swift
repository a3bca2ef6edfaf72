import Foundation

/// How late this host wakes an idle thread: 5,000 sleeps of 1 ms on the test's thread, once a
/// test process (about 5.5 s), printed.
///
/// vload's default bound (2 ms of send or receive lag at p99) judges the generator on the
/// assumption that the host runs a thread when its timer is due. Some 2-vCPU VMs do not: on
/// 2026-11-28 an idle C program's 1 ms sleep woke more than 2 ms late 9-31 times in 5,000
/// (up to 5.7 ms), with nothing else running. There, one such stall when 20 sessions' frames
/// fall due together makes more than 1 % of a short run's frames late, and a fresh-clone CI run
/// had four WebSocket dialects invalid in three tries of 20 callers at 14-20 % of one core, and
/// first-audio figures 1.05-2.66 ms off against 1-2 ms tolerances.
///
/// The default-bound test judges as before on a host that holds the bound: none of the 5,000
/// wake-ups more than 2 ms late. One such stall, when 20 sessions' frames fall due together, is
/// enough to make a short run invalid; the noisy VM had 2-31 in 5,000. On a host that does not
/// hold it, that test prints, not fails, a run invalid in every try (`DefaultBoundRunTests`).
/// The latency checks allow what each run measured of its own delays instead (`RunDelays`): a
/// figure taken before the run says nothing of the stall that hits it.
enum HostTimer {
    struct Measure: Sendable, CustomStringConvertible {
        var wakes: Int
        var lateOver2Ms: Int
        var maxLateMs: Double

        var description: String {
            "\(lateOver2Ms) of \(wakes) idle 1 ms sleeps woke more than 2 ms late, the latest by "
                + String(format: "%.3f", maxLateMs) + " ms"
        }
    }

    static let measure: Measure = {
        var measure = Measure(wakes: 5_000, lateOver2Ms: 0, maxLateMs: 0)
        for _ in 0..<measure.wakes {
            let start = DispatchTime.now().uptimeNanoseconds
            var request = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            _ = nanosleep(&request, nil)
            let lateMs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 - 1
            measure.maxLateMs = max(measure.maxLateMs, lateMs)
            if lateMs > 2 { measure.lateOver2Ms += 1 }
        }
        print("host timer: \(measure)" + (measure.lateOver2Ms > 0 ? ": this host does not hold vload's 2 ms bound on its own" : ""))
        return measure
    }()

    /// Whether the host held the default bound on its own: no wake-up more than 2 ms late.
    static var holdsDefaultBound: Bool { measure.lateOver2Ms == 0 }
}
