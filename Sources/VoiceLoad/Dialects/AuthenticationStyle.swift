/// How a dialect carries the API key on the WebSocket upgrade (docs/dialects.md).
package enum AuthenticationStyle: Sendable, Hashable {
    /// In a query parameter of the URL (Datagrid `?token=`).
    case queryParameter(name: String)
    /// In an HTTP header, with a prefix before the key (`Authorization: Bearer KEY`).
    case header(name: String, prefix: String)
    /// In `Sec-WebSocket-Protocol`, after a marker value (`token, KEY`), as browsers do.
    case subprotocol(marker: String)
    /// In the session parameters under this name, for the codec to place (Twilio puts it in
    /// `start.customParameters`, as its stream URLs take no query string).
    case sessionParameter(name: String)
    /// The dialect has no authentication of its own.
    case none
}
