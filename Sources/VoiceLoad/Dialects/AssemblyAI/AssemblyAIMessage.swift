/// The wire names of AssemblyAI Universal-Streaming v3, `/v3/ws` (docs/dialects.md), as the
/// `assemblyai` SDK's streaming v3 models spell them. Every message is a JSON object with a
/// `type` and its fields next to it, parsed and written as a `DeepgramMessage` is (the same shape).
enum AssemblyAIMessage {
    enum Name {
        // Client → server.
        static let terminate = "Terminate"
        static let forceEndpoint = "ForceEndpoint"
        static let keepAlive = "KeepAlive"
        static let updateConfiguration = "UpdateConfiguration"
        // Server → client.
        static let begin = "Begin"
        static let speechStarted = "SpeechStarted"
        static let turn = "Turn"
        static let termination = "Termination"
        static let error = "Error"
        static let warning = "Warning"
        /// Server messages that change nothing vload measures: known, so not counted as unknown.
        static let informational = ["Heartbeat", "Silence", "LLMGatewayResponse", "SpeakerRevision"]
        /// Every server message type the client codec reads by name.
        static let typesRead = [begin, speechStarted, turn, termination, error, warning] + informational
    }

    /// The control messages that have no fields, as the SDK writes them.
    enum Literal {
        static let terminate = #"{"type":"Terminate"}"#
        static let forceEndpoint = #"{"type":"ForceEndpoint"}"#
        static let keepAlive = #"{"type":"KeepAlive"}"#
    }

    /// The speech model vload asks for unless the URL or the session names one: the service
    /// requires one, and `universal-streaming-english` is its English streaming model.
    static let defaultSpeechModel = "universal-streaming-english"

    /// AssemblyAI's name for the encoding of `format` (`encoding=pcm_s16le`): µ-law is
    /// `pcm_mulaw`, PCM16 `pcm_s16le` (the dialect streams nothing else).
    static func encodingName(of format: AudioFormat) -> String {
        format.encoding == .mulaw ? "pcm_mulaw" : "pcm_s16le"
    }
}
