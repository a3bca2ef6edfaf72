extension StageList {
    /// When client slot `slot` (0-based) of a staged closed model is active: while the target
    /// is above `slot`. A client starts sessions back to back during its intervals; a session
    /// under way when its interval ends finishes (a graceful ramp-down). Milliseconds from the
    /// run's start, in order, adjacent pieces joined.
    package func activeIntervalsMs(ofSlot slot: Int) -> [Range<Double>] {
        let level = Double(slot)
        var intervals: [Range<Double>] = []
        func add(_ range: Range<Double>) {
            guard !range.isEmpty else { return }
            if let last = intervals.last, last.upperBound >= range.lowerBound {
                intervals[intervals.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                intervals.append(range)
            }
        }
        var from = start
        var startMs = 0.0
        for stage in stages {
            let endMs = startMs + Double(stage.durationMs)
            let to = stage.target
            if stage.durationMs > 0 {
                switch (from > level, to > level) {
                case (true, true):
                    add(startMs..<endMs)
                case (false, true):
                    add(crossing(level, from: from, to: to, startMs: startMs, endMs: endMs)..<endMs)
                case (true, false):
                    add(startMs..<crossing(level, from: from, to: to, startMs: startMs, endMs: endMs))
                case (false, false):
                    break
                }
            }
            from = to
            startMs = endMs
        }
        return intervals
    }

    private func crossing(_ level: Double, from: Double, to: Double, startMs: Double, endMs: Double) -> Double {
        startMs + (level - from) / (to - from) * (endMs - startMs)
    }
}
