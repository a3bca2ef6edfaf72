/// Why a WebSocket URL was refused.
///
/// Every case names the URL (with secret query values redacted) and says what is wrong in
/// one line, so it can be shown to the user as is.
package enum EndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `scheme://` prefix.
    case missingScheme(url: String)
    /// A scheme other than ws or wss.
    case unsupportedScheme(url: String, scheme: String)
    /// Nothing between `://` and the path.
    case missingHost(url: String)
    /// A host with characters no host name or IP literal may hold.
    case invalidHost(url: String, host: String)
    /// A port that is not a number in 1…65535.
    case invalidPort(url: String, port: String)
    /// `user:password@` before the host.
    case userInfoNotSupported(url: String)
    /// A `#fragment`, which RFC 6455 §3 forbids in WebSocket URIs.
    case fragmentNotAllowed(url: String)
    /// Whitespace or control characters anywhere in the URL.
    case invalidCharacter(url: String)

    package var description: String {
        switch self {
        case .missingScheme(let url):
            return "malformed URL '\(url)': missing scheme (expected ws:// or wss://)"
        case .unsupportedScheme(let url, let scheme):
            return "malformed URL '\(url)': scheme must be ws or wss, not '\(scheme)'"
        case .missingHost(let url):
            return "malformed URL '\(url)': host is missing"
        case .invalidHost(let url, let host):
            return "malformed URL '\(url)': invalid host '\(host)'"
        case .invalidPort(let url, let port):
            return "malformed URL '\(url)': port must be a number in 1...65535, not '\(port)'"
        case .userInfoNotSupported(let url):
            return "malformed URL '\(url)': user:password@ is not supported (send credentials as a header or query parameter)"
        case .fragmentNotAllowed(let url):
            return "malformed URL '\(url)': a WebSocket URL must not have a #fragment"
        case .invalidCharacter(let url):
            return "malformed URL '\(url)': contains whitespace or control characters"
        }
    }
}
