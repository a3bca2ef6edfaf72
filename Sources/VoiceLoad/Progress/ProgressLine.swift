import Foundation

/// One line of live progress from the figures of the moment: a bar for a terminal, or a
/// greppable `key=value` log line for a pipe or a file. Pure: no clock, no output.
package enum ProgressLine {
    /// Cells in the terminal bar.
    package static let barCells = 20

    /// The terminal line, its trailing parts left out to keep within `width` − 1 columns so it
    /// never wraps, e.g.
    /// `[██████░░░░░░░░░░░░░░]  30%  9.0s/30.0s  active 50  sessions 40 (0 failed)  turns 38  errors 0  first audio p50 700.4 ms p95 701.2 ms  send lag p99 1.8 ms`.
    package static func terminal(_ figures: LiveFigures, total: ProgressTotal, width: Int = 120) -> String {
        let fraction = total.fraction(of: figures)
        let filled = Int((fraction * Double(barCells)).rounded(.down))
        let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barCells - filled) + "]"
        let percent = String(Int((fraction * 100).rounded(.down))).leftPadded(to: 3) + "%"
        var parts = [bar + " " + percent]
        switch total {
        case .durationMs(let durationMs):
            parts.append(clock(figures.elapsedMs) + "/" + clock(Double(durationMs)))
            parts.append("active \(figures.activeSessions)")
            parts.append("sessions \(figures.sessionsEnded) (\(figures.sessionsFailed) failed)")
        case .sessions(let sessions):
            parts.append("\(figures.sessionsEnded)/\(sessions) sessions (\(figures.sessionsFailed) failed)")
            parts.append(clock(figures.elapsedMs))
            parts.append("active \(figures.activeSessions)")
        }
        parts.append("turns \(figures.turnsCompleted)")
        parts.append("errors \(figures.errors)")
        if figures.droppedStarts > 0 { parts.append("dropped \(figures.droppedStarts)") }
        parts.append(
            "first audio p50 \(milliseconds(figures.firstAudioP50Ms, unit: " ms")) p95 \(milliseconds(figures.firstAudioP95Ms, unit: " ms"))"
        )
        parts.append("send lag p99 \(milliseconds(figures.sendLagP99Ms, unit: " ms"))")
        return fitted(parts, columns: max(1, width - 1))
    }

    /// The parts joined by two spaces, as many whole parts as fit in `columns` (the first cut
    /// to fit if even it does not).
    static func fitted(_ parts: [String], columns: Int) -> String {
        var line = String((parts.first ?? "").prefix(columns))
        for part in parts.dropFirst() {
            guard line.count + 2 + part.count <= columns else { break }
            line += "  " + part
        }
        return line
    }

    /// The log line, e.g.
    /// `progress t=12.0s active=50 sessions=40/50 failed=0 turns=38 errors=0 first_audio_p50=700.4ms first_audio_p95=701.2ms send_lag_p99=1.8ms`
    /// (`t=9.0s/30.0s` and `sessions=40` when the run is bounded by time).
    package static func log(_ figures: LiveFigures, total: ProgressTotal) -> String {
        var fields = ["progress"]
        switch total {
        case .durationMs(let durationMs):
            fields.append("t=\(seconds(figures.elapsedMs))/\(seconds(Double(durationMs)))")
            fields.append("active=\(figures.activeSessions)")
            fields.append("sessions=\(figures.sessionsEnded)")
        case .sessions(let sessions):
            fields.append("t=\(seconds(figures.elapsedMs))")
            fields.append("active=\(figures.activeSessions)")
            fields.append("sessions=\(figures.sessionsEnded)/\(sessions)")
        }
        fields.append("failed=\(figures.sessionsFailed)")
        fields.append("turns=\(figures.turnsCompleted)")
        fields.append("errors=\(figures.errors)")
        if figures.droppedStarts > 0 { fields.append("dropped=\(figures.droppedStarts)") }
        fields.append("first_audio_p50=\(milliseconds(figures.firstAudioP50Ms, unit: "ms"))")
        fields.append("first_audio_p95=\(milliseconds(figures.firstAudioP95Ms, unit: "ms"))")
        fields.append("send_lag_p99=\(milliseconds(figures.sendLagP99Ms, unit: "ms"))")
        return fields.joined(separator: " ")
    }

    /// `12.0s`, one decimal.
    static func seconds(_ valueMs: Double) -> String {
        String(format: "%.1fs", valueMs / 1_000)
    }

    /// `12.0s` under a minute, `2m05s` under an hour, `1h02m05s` after.
    static func clock(_ valueMs: Double) -> String {
        guard valueMs >= 60_000 else { return seconds(valueMs) }
        let total = Int(valueMs / 1_000)
        let (hours, minutes, secs) = (total / 3_600, total / 60 % 60, total % 60)
        let tail = String(format: "%02dm%02ds", minutes, secs)
        return hours > 0 ? "\(hours)h" + tail : String(format: "%dm%02ds", minutes, secs)
    }

    /// One decimal and the unit, or `n/a` when there is no value.
    static func milliseconds(_ valueMs: Double?, unit: String) -> String {
        valueMs.map { String(format: "%.1f", $0) + unit } ?? "n/a"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
