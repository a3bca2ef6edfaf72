import Foundation

/// The RTVI messages the `pipecat-protobuf` dialect sends in Pipecat transport messages (and
/// vload-webrtc-probe on a SmallWebRTC data channel), as
/// pipecat-ai 1.14's `pipecat.processors.frameworks.rtvi.models` defines them: `client-ready`,
/// which a bot running Pipecat's RTVI processor waits for before it streams (its "client-ready
/// audio gating") and answers with `bot-ready`.
package enum PipecatRTVI {
    /// The RTVI protocol version vload speaks: pipecat-ai 1.14's `PROTOCOL_VERSION`. A bot
    /// treats a client of another major version as incompatible.
    package static let protocolVersion = "2.2.0"
    package static let label = "rtvi-ai"

    /// `client-ready` with the protocol version and who the client is (`ClientReadyData`:
    /// `version`, `about` with `library` and `library_version`), as JSON text.
    package static func clientReady(id: String) -> String {
        let about: [String: JSONValue] = ["library": "vload", "library_version": .string(VLoadVersion.current)]
        let data: [String: JSONValue] = ["version": .string(protocolVersion), "about": .object(about)]
        return JSONFrame.text(["label": .string(label), "type": "client-ready", "id": .string(id), "data": .object(data)])
    }
}
