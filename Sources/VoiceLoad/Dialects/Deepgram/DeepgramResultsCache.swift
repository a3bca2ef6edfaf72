import Synchronization

/// The `Results` messages prepared for the transcripts a simulator sends (`DeepgramResultsMessage`),
/// shared by the codecs of all its sessions, across its event loops: a transcript is prepared
/// once per simulator, not once per session. Holds at most `capacity` transcripts; others are
/// prepared for each result.
final class DeepgramResultsCache: Sendable {
    static let capacity = 16
    private let prepared = Mutex<[String: DeepgramResultsMessage]>([:])

    /// The message prepared for `transcript`.
    func message(for transcript: String) -> DeepgramResultsMessage {
        if let message = prepared.withLock({ $0[transcript] }) { return message }
        let message = DeepgramResultsMessage(transcript: transcript)
        prepared.withLock { prepared in
            if prepared.count < Self.capacity { prepared[transcript] = message }
        }
        return message
    }
}
