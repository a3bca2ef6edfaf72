/// The three shapes Google ADK bidi-streaming application servers commonly take on the wire
/// (docs/dialects.md): the wire format belongs to the app, not to Google.
package enum ADKVariant: String, Sendable, Hashable, CaseIterable {
    /// The S3 server: `/ws/{sessionId}?is_audio=true`, flat JSON with `mime_type`, `role` on
    /// user audio, transcriptions and tool use as `type` messages.
    case seed = "adk-seed"
    /// The ADK docs' custom audio streaming sample: `/ws/{user_id}?is_audio=true`, flat JSON
    /// with `mime_type`, turn flags, no transcriptions or tool events.
    case legacy = "adk-legacy"
    /// The bidi-demo: `/ws/{user_id}/{session_id}`, binary PCM up, raw ADK `Event` JSON
    /// (camelCase) down.
    case events = "adk-events"

    /// The dialect id on the command line.
    package var id: String { rawValue }

    /// Whether the variant's user path is `/ws/{id}?is_audio=…` (seed and legacy).
    var usesIsAudioQuery: Bool { self != .events }
}
