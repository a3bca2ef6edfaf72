/// What a virtual client wants to say, independent of the wire protocol.
///
/// A client codec encodes intents into frames; a server codec (the simulator's side)
/// decodes frames back into intents, so one description of a protocol serves both ends.
package enum ClientIntent: Sendable, Hashable {
    /// Open the session with the dialect's session parameters (Datagrid `start`, OpenAI
    /// `session.update`, Deepgram `Settings`, Twilio `start`).
    case start(parameters: [String: JSONValue])
    /// One chunk of user audio, already encoded in the dialect's input format.
    case audio([UInt8])
    /// The user talks over the agent (Datagrid `interrupt`, OpenAI `response.cancel`).
    case interrupt
    /// A text message from the user.
    case text(String)
    /// Force a turn boundary (OpenAI `input_audio_buffer.commit`, Deepgram `Finalize`).
    case commit
    /// New session settings mid-stream, from a `configure` step (Deepgram Flux `Configure`,
    /// AssemblyAI `UpdateConfiguration`); the codec lays the members out as its protocol does.
    case configure(parameters: [String: JSONValue])
    /// Keep an idle connection open (Deepgram `KeepAlive`).
    case keepAlive
    /// The result of a tool the agent asked the client to run.
    case toolResult(callID: String, name: String, output: String)
    /// Playback of the agent's current audio item stopped after this much of it had played
    /// (a barge-in): OpenAI `conversation.item.truncate`, so the server's context holds what
    /// the caller actually heard.
    case playbackTruncated(audioEndMs: Int)
    /// Twilio `mark` echo: audio up to this label has played.
    case markPlayed(name: String)
    /// The caller pressed a key on the phone's keypad (Twilio `dtmf`): one of `0-9`, `*`, `#`.
    case dtmf(digit: String)
    /// End the session cleanly (Datagrid `stop`, Twilio `stop`, Deepgram `CloseStream`).
    case stop
}
