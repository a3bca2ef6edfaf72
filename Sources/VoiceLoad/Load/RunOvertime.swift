/// How a time-bounded closed-model run may go on past its duration: when the duration is up,
/// and every `checkEveryMs` after, `goOn` is asked with the run's report as it stands (warm-up
/// left out, thresholds judged) and how far past the duration the run is; while it answers
/// true the clients go on running sessions back to back, as during the duration. Once it
/// answers false the run ends as a time-bounded run does: no more starts, and what is still
/// open is wound down `drainMs` later. The report is not `interrupted` by it.
///
/// `goOn` must bound the overtime itself (`vload capacity` stops at `--max-hold`). Other load
/// models end at their duration: their schedule has no more starts to make.
package struct RunOvertime: Sendable {
    package var checkEveryMs: Int
    package var goOn: @Sendable (_ report: RunReport, _ pastDurationMs: Int) -> Bool

    package init(checkEveryMs: Int = 1_000, goOn: @escaping @Sendable (_ report: RunReport, _ pastDurationMs: Int) -> Bool) {
        self.checkEveryMs = max(1, checkEveryMs)
        self.goOn = goOn
    }
}
