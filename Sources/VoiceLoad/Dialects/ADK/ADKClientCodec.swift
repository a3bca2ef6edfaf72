/// The client side of one ADK connection: nothing is sent on open (the server starts the
/// ADK session when it accepts the socket); intents and frames go through the stateless
/// `ADKClientDialect`.
struct ADKClientCodec: ClientCodec {
    let dialect: ADKClientDialect

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
