import Foundation
import Synchronization

/// The ticker of a run's live view: every `tickMs` it reads the recorder's live figures once,
/// hands them to the Prometheus metrics and the progress printer, and writes what the printer
/// returns. It starts with the run and stops when the last session has ended, writing the last
/// line (and a newline on a terminal) before the summary follows.
package final class LiveMonitor: RunObserver {
    package let tickMs: Int
    private let progress: ProgressPrinter?
    private let metrics: PrometheusLiveMetrics?
    private let write: @Sendable (String) -> Void
    private let ticker = Mutex<Ticker?>(nil)

    private struct Ticker: Sendable {
        let recorder: Recorder
        let task: Task<ProgressPrinter?, Never>
    }

    /// - Parameters:
    ///   - progress: the progress printer; nil with `--quiet`.
    ///   - metrics: the metrics the endpoint serves; nil without `--metrics-port`.
    ///   - tickMs: time between two reads of the figures.
    ///   - write: where progress text goes (standard output, flushed, by default).
    package init(
        progress: ProgressPrinter?,
        metrics: PrometheusLiveMetrics?,
        tickMs: Int = 250,
        write: @escaping @Sendable (String) -> Void = LiveMonitor.writeToStandardOutput
    ) {
        self.progress = progress
        self.metrics = metrics
        self.tickMs = max(1, tickMs)
        self.write = write
    }

    package func runStarted(recorder: Recorder) {
        let (progress, metrics, write, tickMs) = (self.progress, self.metrics, self.write, self.tickMs)
        let task = Task<ProgressPrinter?, Never> {
            var printer = progress
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(tickMs))
                guard !Task.isCancelled else { break }
                let figures = recorder.liveFigures()
                metrics?.update(figures)
                if let text = printer?.tick(figures) { write(text) }
            }
            return printer
        }
        let previous = ticker.withLock { ticker in
            defer { ticker = Ticker(recorder: recorder, task: task) }
            return ticker
        }
        previous?.task.cancel()
    }

    package func runEnded() async {
        guard
            let ticker = ticker.withLock({ ticker in
                defer { ticker = nil }
                return ticker
            })
        else { return }
        ticker.task.cancel()
        let printer = await ticker.task.value
        let figures = ticker.recorder.liveFigures()
        metrics?.update(figures)
        if let printer { write(printer.finish(figures)) }
    }

    /// Writes to standard output and flushes, so a partial terminal line shows at once and log
    /// lines reach a pipe as they happen.
    package static func writeToStandardOutput(_ text: String) {
        print(text, terminator: "")
        fflush(nil)
    }
}
