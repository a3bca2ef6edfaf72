import WSClient
import WSCore

/// What a caller's open connection does for `VirtualClient`, whatever carries it: a WebSocket
/// (`WebSocketConnection`) or a WebRTC call (`WebRTCCallConnection`, docs/webrtc.md). Used on
/// the caller's event loop; inbound frames, the close and failures come through the
/// `WebSocketConnectionEvent`s given to the connect.
package protocol CallerConnection: AnyObject, Sendable {
    /// Sends one frame: a WebSocket message; on WebRTC a binary frame is one Opus packet of the
    /// caller's audio and a text frame a data channel message.
    func send(_ frame: EncodedFrame)
    /// Closes the connection; `.closed` is reported when it is.
    func close(code: Int, reason: String)
}

extension CallerConnection {
    func close(code: Int) { close(code: code, reason: "") }
}

extension WebSocketConnection: CallerConnection {}
