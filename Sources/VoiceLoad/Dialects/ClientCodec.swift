import WSCore

/// The client side of one connection: a pure, possibly stateful codec between intents and
/// frames, and between frames and normalized events.
package protocol ClientCodec: Sendable {
    /// Frames to send right after the WebSocket opens (Datagrid `start`).
    mutating func framesOnOpen() -> [WireFrame]
    /// The wire frame for one prepared audio frame; most dialects return the shared frame.
    mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame
    /// The frames for an intent; empty when this dialect has no such message.
    mutating func frames(for intent: ClientIntent) -> [WireFrame]
    /// Every normalized event one inbound frame carries (possibly several, possibly none),
    /// and the frames the protocol wants sent back.
    mutating func receive(_ frame: WireFrame) -> DecodedFrame
    /// Frames to send when the client has sent the whole clip of an utterance: the turn
    /// boundary of dialects where the client ends turns itself (OpenAI manual turns:
    /// `input_audio_buffer.commit` and `response.create`). Most dialects send nothing.
    mutating func framesAfterUtterance() -> [WireFrame]
    /// Takes what the REST pre-step's answer holds for later frames (a custom dialect's
    /// captured variables), before `framesOnOpen`. Built-in dialects need nothing from it.
    mutating func adoptRESTSetup(_ setup: RESTSetup)
}

extension ClientCodec {
    package mutating func adoptRESTSetup(_ setup: RESTSetup) {}

    package mutating func framesAfterUtterance() -> [WireFrame] { [] }
}
