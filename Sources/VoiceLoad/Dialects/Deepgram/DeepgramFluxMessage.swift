/// The wire names of Deepgram Flux, `/v2/listen` (docs/dialects.md), as the deepgram-sdk's
/// listen v2 models spell them. Messages are parsed and written as `DeepgramMessage`s: the
/// same `{"type": …}` objects with every field next to `type`.
enum DeepgramFluxMessage {
    /// The message types.
    enum Name {
        // Client → server.
        static let configure = "Configure"
        static let forceEndTurn = "ForceEndTurn"
        static let closeStream = "CloseStream"
        // Server → client.
        static let connected = "Connected"
        static let turnInfo = "TurnInfo"
        static let configureSuccess = "ConfigureSuccess"
        static let configureFailure = "ConfigureFailure"
        static let warning = "Warning"
        static let error = "Error"
        /// Every server message type the client codec reads by name.
        static let typesRead = [connected, turnInfo, configureSuccess, configureFailure, warning, error]
    }

    /// The values of `TurnInfo.event`.
    enum Event {
        static let startOfTurn = "StartOfTurn"
        static let update = "Update"
        static let eagerEndOfTurn = "EagerEndOfTurn"
        static let turnResumed = "TurnResumed"
        static let endOfTurn = "EndOfTurn"
    }

    /// The values of `TurnInfo.trigger`, which only `EndOfTurn` carries.
    enum Trigger {
        /// Flux's own end-of-turn detection.
        static let model = "model"
        /// The client's `ForceEndTurn`.
        static let manual = "manual"
    }

    /// The query parameters that set the end-of-turn thresholds; the eager one turns on
    /// `EagerEndOfTurn` and `TurnResumed`.
    enum Threshold {
        static let eager = "eager_eot_threshold"
        static let final = "eot_threshold"
        static let timeoutMs = "eot_timeout_ms"
        /// All three: the members of `Configure.thresholds`.
        static let all = [eager, final, timeoutMs]
    }

    /// The control messages that have no fields, as the SDK itself writes them.
    enum Literal {
        static let forceEndTurn = #"{"type":"ForceEndTurn"}"#
        static let closeStream = #"{"type":"CloseStream"}"#
    }

    /// The model vload asks for unless the URL or the session's `model` names one: the SDK
    /// requires a model, and `flux-general-en` is Flux's English model.
    static let defaultModel = "flux-general-en"
}
