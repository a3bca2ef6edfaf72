/// A signal that interrupts a run (Ctrl-C, or a supervisor's SIGTERM).
package enum InterruptSignal: String, Sendable, Hashable, Codable, CaseIterable {
    case sigint = "SIGINT"
    case sigterm = "SIGTERM"

    /// The conventional exit code of a process ended by the signal: 128 + its number.
    package var exitCode: Int32 {
        switch self {
        case .sigint: return 130
        case .sigterm: return 143
        }
    }
}
