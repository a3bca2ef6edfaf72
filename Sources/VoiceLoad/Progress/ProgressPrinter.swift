import Foundation

/// Decides, tick by tick, what live progress to write: on a terminal the line redrawn in place
/// at every tick, off a terminal a log line every `intervalMs` of the run, and one last line when
/// the run ends either way. A value state machine: it returns text, the caller writes it.
package struct ProgressPrinter: Sendable {
    package enum Mode: Sendable, Hashable {
        /// Redraw one line in place (carriage return and ANSI clear-line), `width` columns wide.
        case terminal(width: Int)
        /// A plain log line every `intervalMs` of the run.
        case log(intervalMs: Int)
    }

    /// Carriage return, then ANSI "erase the whole line".
    static let redraw = "\r\u{1B}[2K"

    package let mode: Mode
    package let total: ProgressTotal
    private var nextLogMs: Double

    package init(mode: Mode, total: ProgressTotal) {
        self.mode = mode
        self.total = total
        if case .log(let intervalMs) = mode { nextLogMs = Double(max(1, intervalMs)) } else { nextLogMs = 0 }
    }

    /// What to write at a tick, if anything.
    package mutating func tick(_ figures: LiveFigures) -> String? {
        guard case .log(let intervalMs) = mode else { return line(figures) }
        guard figures.elapsedMs >= nextLogMs else { return nil }
        while nextLogMs <= figures.elapsedMs { nextLogMs += Double(max(1, intervalMs)) }
        return line(figures) + "\n"
    }

    /// The last line, when the run has ended, closed with a newline so what follows starts on
    /// a line of its own.
    package func finish(_ figures: LiveFigures) -> String {
        line(figures) + "\n"
    }

    /// The terminal line (redrawn over the last) or the log line.
    private func line(_ figures: LiveFigures) -> String {
        switch mode {
        case .terminal(let width): Self.redraw + ProgressLine.terminal(figures, total: total, width: width)
        case .log: ProgressLine.log(figures, total: total)
        }
    }

    /// The mode for this process's standard output: a terminal as wide as it is, or a log line
    /// every 5 s when stdout is a pipe or a file.
    package static func standardOutputMode(logIntervalMs: Int = 5_000) -> Mode {
        guard isatty(STDOUT_FILENO) == 1 else { return .log(intervalMs: logIntervalMs) }
        var size = winsize()
        let columns = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 ? Int(size.ws_col) : 0
        return .terminal(width: columns > 0 ? columns : 120)
    }
}
