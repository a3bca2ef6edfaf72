import Dispatch
import Foundation
import VoiceLoad

/// SIGINT and SIGTERM handed to a `RunInterruption` while a run goes on: the first winds the
/// run down (said on stderr), the second writes what it can at once and exits 130 or 143.
/// Installed only by the command line; the default actions are ignored while it is.
final class InterruptSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ interruption: RunInterruption) {
        sources = InterruptSignal.allCases.map { signal in
            let number = signal.number
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { Self.received(signal, by: interruption) }
            source.resume()
            return source
        }
    }

    /// Restores the default actions (the run is over).
    func remove() {
        for source in sources { source.cancel() }
        for signal in InterruptSignal.allCases { Foundation.signal(signal.number, SIG_DFL) }
    }

    private static func received(_ signal: InterruptSignal, by interruption: RunInterruption) {
        switch interruption.receive(signal) {
        case .windDown:
            let graceS = String(format: "%.1f", Double(interruption.graceMs) / 1_000)
            say("\(signal.rawValue): no new sessions; open sessions hang up within \(graceS) s (a second signal exits at once)")
        case .exitNow(let code):
            interruption.writeForcedExitReport()
            say("\(signal.rawValue), a second signal: exiting now; the CSV rows and report.json as they stand are on disk")
            Foundation.exit(code)
        }
    }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data("\nvload: \(line)\n".utf8))
    }
}

extension InterruptSignal {
    /// The POSIX signal number.
    var number: Int32 {
        switch self {
        case .sigint: return SIGINT
        case .sigterm: return SIGTERM
        }
    }
}
