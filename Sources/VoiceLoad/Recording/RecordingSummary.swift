import Foundation

/// The run's recordings in report.json (`recordings`, docs/recordings.md): the policy, the cap,
/// what was written and what the cap left out.
package struct RecordingSummary: Sendable, Codable, Hashable {
    package var policy: String
    package var capBytes: Int
    package var bytes: Int
    /// Calls that were to be recorded but would have passed the cap.
    package var leftOut: Int
    /// Each recording, the slowest first audio first (calls without one last).
    package var calls: [Call]

    package struct Call: Sendable, Codable, Hashable {
        /// The WAV and its marks, relative to the report's directory.
        package var wav: String
        package var marks: String
        package var client: Int
        package var iteration: Int
        package var reasons: [String]
        package var durationMs: Double
        package var outcome: String
        package var slowestFirstAudioFromEndMs: Double?
        package var bytes: Int

        enum CodingKeys: String, CodingKey {
            case wav, marks, client, iteration, reasons, outcome, bytes
            case durationMs = "duration_ms"
            case slowestFirstAudioFromEndMs = "slowest_first_audio_from_end_ms"
        }
    }

    enum CodingKeys: String, CodingKey {
        case policy, bytes, calls
        case capBytes = "cap_bytes"
        case leftOut = "left_out"
    }

    package init(policy: String, capBytes: Int, bytes: Int = 0, leftOut: Int = 0, calls: [Call] = []) {
        self.policy = policy
        self.capBytes = capBytes
        self.bytes = bytes
        self.leftOut = leftOut
        self.calls = calls
    }

    /// `recordings: 5 calls, 3.1 MB in DIR/recordings/ (cap 200 MB; 2 left out by the cap)`.
    package func line(directory: String) -> String {
        let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        let count = "\(calls.count) call\(calls.count == 1 ? "" : "s")"
        let leftOutText = leftOut > 0 ? "; \(leftOut) left out by the cap" : ""
        return
            "recordings (\(policy)): \(count), \(megabytes(bytes)) in \(directory)/recordings/ (cap \(megabytes(capBytes))\(leftOutText))"
    }
}
