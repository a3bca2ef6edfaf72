/// The client side of one Smallest.ai Atoms connection: nothing is sent on open (the
/// session starts on connect); intents and frames go through the stateless
/// `SmallestAtomsClientDialect`.
struct SmallestAtomsClientCodec: ClientCodec {
    let dialect: SmallestAtomsClientDialect

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
