/// What a virtual client wants to say, independent of the wire protocol.
///
/// A client dialect encodes intents into frames; a server dialect (the simulator's side)
/// decodes frames back into intents, so one description of a protocol serves both ends.
public enum ClientIntent: Sendable, Hashable {
    /// Open the session. `parameters` are the dialect's session parameters (Datagrid `start`
    /// payload), taken from the scenario.
    case start(parameters: [String: JSONValue])
    /// One chunk of user audio, already encoded in the dialect's input format.
    case audio([UInt8])
    /// The user talks over the agent (Datagrid `interrupt`, OpenAI `response.cancel`).
    case interrupt
    /// A text message from the user.
    case text(String)
    /// End the session cleanly (Datagrid `stop`).
    case stop
}
