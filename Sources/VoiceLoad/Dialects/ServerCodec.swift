import WSCore

/// The server side of one connection.
package protocol ServerCodec: Sendable {
    /// The intents one client frame carries.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent]
    /// The frames for one agent output; empty when the dialect has no such message.
    mutating func frames(for output: AgentOutput) -> [WireFrame]
    /// The wire frame for one prepared chunk of agent audio.
    mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame
}
