import WSCore

/// The client side of one Datagrid connection: sends `start` on open, then maps intents and
/// frames through the stateless `DatagridClientDialect`.
struct DatagridClientCodec: ClientCodec {
    let dialect: DatagridClientDialect
    let parameters: [String: JSONValue]

    func framesOnOpen() -> [WireFrame] {
        dialect.openingFrames(parameters: parameters)
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.text(""))
    }

    func frames(for intent: ClientIntent) -> [WireFrame] {
        dialect.encode(intent).map { [$0] } ?? []
    }

    func receive(_ frame: WireFrame) -> DecodedFrame {
        DecodedFrame(events: dialect.decode(frame))
    }
}
