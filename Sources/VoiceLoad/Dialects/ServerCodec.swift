import WSCore

/// The server side of one connection.
package protocol ServerCodec: Sendable {
    /// The intents one client frame carries.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent]
    /// The frames for one agent output; empty when the dialect has no such message.
    mutating func frames(for output: AgentOutput) -> [WireFrame]
    /// The wire frame for one prepared chunk of agent audio.
    mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame
    /// The frames the server answers the frames received so far with by itself, whatever the
    /// agent does (Deepgram `ThinkUpdated` for `UpdateThink`), each taken once; none on most
    /// dialects.
    mutating func takeAcknowledgements() -> [WireFrame]
    /// Whether an end of turn announced early can still be withdrawn: speech that resumes
    /// before the final end of the turn continues it (`.userTurnResumed`) rather than starting
    /// another. Deepgram Flux with an eager threshold set; false on most dialects.
    var withdrawsEndOfTurnOnResume: Bool { get }
}

extension ServerCodec {
    package mutating func takeAcknowledgements() -> [WireFrame] { [] }

    package var withdrawsEndOfTurnOnResume: Bool { false }
}
