import WSCore

/// A JSON dialect whose client side keeps no per-connection state: nothing is sent on open,
/// and every frame is built from the intent alone or read on its own (ADK, Smallest.ai Atoms).
protocol StatelessJSONClientDialect: ClientDialect {
    /// The frame for an intent; nil when the protocol has no message for it.
    func encode(_ intent: ClientIntent) -> WireFrame?
    /// The events one inbound frame carries.
    func decode(_ frame: WireFrame) -> [NormalizedEvent]
    /// An audio frame around already-encoded base64 audio.
    func audioFrame(base64: String) -> WireFrame
}

/// The client side of one connection of a `StatelessJSONClientDialect`: intents and frames go
/// straight through the dialect.
struct StatelessJSONClientCodec<Dialect: StatelessJSONClientDialect>: ClientCodec {
    let dialect: Dialect

    func framesOnOpen() -> [WireFrame] { [] }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(dialect.audioFrame(base64: audio.base64 ?? ""))
    }

    func frames(for intent: ClientIntent) -> [WireFrame] {
        dialect.encode(intent).map { [$0] } ?? []
    }

    func receive(_ frame: WireFrame) -> DecodedFrame {
        DecodedFrame(events: dialect.decode(frame))
    }
}
