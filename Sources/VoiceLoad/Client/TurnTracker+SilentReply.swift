import WSCore

extension TurnTracker {
    /// An agent turn (reply or greeting) that ended, by event or audio gap, having delivered
    /// audio none of which was voiced: the agent answered with silence (`silent_reply`).
    package struct SilentReply: Sendable, Hashable, CustomStringConvertible {
        /// 1-based count of agent turns in the session.
        package var turnNumber: Int
        /// The label of the utterance it answered; nil for the greeting.
        package var label: String?
        /// Its audio's duration.
        package var audioUs: Int64
        /// The RMS level (0…1) of its loudest chunk, below the voiced threshold.
        package var peakRms: Float
        package var endedAt: MonotonicInstant

        /// `reply to 'ask' (agent turn 2): 1840 ms of audio, none voiced (peak RMS 0.0031)`.
        package var description: String {
            let what = label.map { "reply to '\($0)'" } ?? "greeting"
            let peak = (Double(peakRms) * 10_000).rounded() / 10_000
            return "\(what) (agent turn \(turnNumber)): \((audioUs + 500) / 1_000) ms of audio, none voiced (peak RMS \(peak))"
        }
    }
}
