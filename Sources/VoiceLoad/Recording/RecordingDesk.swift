import Dispatch
import Foundation
import Synchronization

/// Where a run's calls go when they end, to be recorded or let go (docs/recordings.md). The
/// decision is taken on the ending call's loop (`RecordingSelection`, under a lock, once per
/// call); the audio is rendered and written on the desk's own queue, off the event loops, and
/// the slowest calls when the run ends (`finish()`). The total size is capped: a recording that
/// would pass the cap is left out and counted, its size known before it is rendered. The
/// agent's audio that running calls hold is bounded by the cap too: each call keeps at most the
/// cap's share of one of the run's concurrent calls (`agentAudioBytesPerCall`).
package final class RecordingDesk: Sendable {
    /// The cap on a run's recordings when `--record-max-mb` is not given.
    package static let defaultCapBytes = 200_000_000

    package let policy: RecordPolicy
    package let capBytes: Int
    /// The agent audio (decoded bytes) each call attempt keeps at most: the cap over the
    /// run's concurrent calls.
    package let agentAudioBytesPerCall: Int
    /// The report's directory; recordings go into its `recordings/`.
    let reportDirectory: URL
    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "vload.recordings", qos: .utility)

    private struct State: Sendable {
        var selection: RecordingSelection
        /// Bytes of the recordings written or being written.
        var bytes = 0
        var leftOut = 0
        var calls: [RecordingSummary.Call] = []
        /// The first write that failed, and how many did.
        var writeError: String?
        var writeFailures = 0
    }

    package init(
        policy: RecordPolicy,
        capBytes: Int = defaultCapBytes,
        reportDirectory: URL,
        thresholds: [ThresholdExpression] = [],
        concurrentCalls: Int = 1
    ) {
        self.policy = policy
        self.capBytes = capBytes
        self.agentAudioBytesPerCall = max(1, capBytes / max(1, concurrentCalls))
        self.reportDirectory = reportDirectory
        self.state = Mutex(State(selection: RecordingSelection(policy: policy, thresholds: thresholds)))
    }

    package var directory: URL { reportDirectory.appendingPathComponent("recordings") }

    /// A call ended (on its loop): recorded now, held among the slowest, or let go.
    package func callEnded(_ call: FinishedCall) {
        let size = CallRecordingAudio.wavBytes(of: call)
        let admitted: [String]? = state.withLock { state in
            guard case .writeNow(let reasons) = state.selection.offer(call) else { return nil }
            return Self.reserve(size, capBytes: capBytes, in: &state) ? reasons : nil
        }
        guard let reasons = admitted else { return }
        queue.async { self.write(call, reasons: reasons, bytes: size) }
    }

    /// Writes the slowest calls held, waits for every write, and returns what was written.
    package func finish() async -> RecordingSummary {
        let worst: [(FinishedCall, Int)] = state.withLock { state in
            state.selection.takeWorst().compactMap { call in
                let size = CallRecordingAudio.wavBytes(of: call)
                return Self.reserve(size, capBytes: capBytes, in: &state) ? (call, size) : nil
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                for (call, size) in worst { self.write(call, reasons: ["worst"], bytes: size) }
                continuation.resume()
            }
        }
        return summary
    }

    /// What has been written so far.
    package var summary: RecordingSummary {
        state.withLock { state in
            let calls = state.calls.sorted {
                ($0.slowestFirstAudioFromEndMs ?? -1, $1.client, $1.iteration) > (
                    $1.slowestFirstAudioFromEndMs ?? -1, $0.client, $0.iteration
                )
            }
            return RecordingSummary(
                policy: policy.description,
                capBytes: capBytes,
                bytes: state.bytes,
                leftOut: state.leftOut,
                calls: calls
            )
        }
    }

    /// The first write that failed, with how many did; nil when none did.
    package var writeError: String? {
        state.withLock { state in state.writeError.map { state.writeFailures > 1 ? "\($0) (and \(state.writeFailures - 1) more)" : $0 } }
    }

    private static func reserve(_ size: Int, capBytes: Int, in state: inout State) -> Bool {
        guard state.bytes + size <= capBytes else {
            state.leftOut += 1
            return false
        }
        state.bytes += size
        return true
    }

    /// Renders `call` and writes its WAV and marks (on the desk's queue).
    private func write(_ call: FinishedCall, reasons: [String], bytes: Int) {
        let audio = CallRecordingAudio(call)
        let marks = CallMarks(call, reasons: reasons, sampleRateHz: audio.sampleRateHz)
        let wavURL = directory.appendingPathComponent(call.baseName + ".wav")
        let marksURL = directory.appendingPathComponent(call.baseName + ".json")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(StereoWAV.bytes(left: audio.left, right: audio.right, sampleRateHz: audio.sampleRateHz)).write(to: wavURL)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(marks).write(to: marksURL)
        } catch {
            state.withLock { state in
                state.bytes -= bytes
                state.writeFailures += 1
                if state.writeError == nil { state.writeError = "cannot write \(wavURL.path): \(FileErrorText.reason(of: error))" }
            }
            return
        }
        let entry = RecordingSummary.Call(
            wav: "recordings/\(call.baseName).wav",
            marks: "recordings/\(call.baseName).json",
            client: call.recording.client,
            iteration: call.recording.iteration,
            reasons: reasons,
            durationMs: marks.durationMs,
            outcome: marks.outcome,
            slowestFirstAudioFromEndMs: marks.slowestFirstAudioFromEndMs,
            bytes: bytes
        )
        state.withLock { $0.calls.append(entry) }
    }
}
