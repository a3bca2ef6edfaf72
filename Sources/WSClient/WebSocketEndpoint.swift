import WSCore

/// A validated `ws://` or `wss://` URL: where to connect and what to ask for.
///
/// `description` is the redacted form, so interpolating an endpoint into a log line never
/// leaks a query-string credential; `urlString` is the full URL for the wire.
package struct WebSocketEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// `ws` (plain TCP) or `wss` (TLS).
    package enum Scheme: String, Sendable, Hashable {
        case ws
        case wss

        /// The port used when the URL names none.
        package var defaultPort: Int { self == .ws ? 80 : 443 }
    }

    package private(set) var scheme: Scheme
    /// The host name or IP address, without the brackets of an IPv6 literal.
    package private(set) var host: String
    /// The TCP port (80 or 443 when the URL names none).
    package private(set) var port: Int
    /// The path, `/` when the URL has none.
    package private(set) var path: String
    /// The raw query after `?` (still percent-encoded), nil when there is none.
    package private(set) var query: String?

    /// Parses and validates a URL string.
    ///
    /// Accepts only ws and wss, requires a host, defaults the port (80/443) and the path (`/`);
    /// refuses user info and fragments.
    package init(parsing text: String) throws(EndpointError) {
        let shown = URLQuery.redactingURL(text)
        guard let separator = text.range(of: "://") else { throw .missingScheme(url: shown) }
        let schemeText = String(text[..<separator.lowerBound])
        guard let scheme = Scheme(rawValue: schemeText.lowercased()) else {
            throw .unsupportedScheme(url: shown, scheme: schemeText)
        }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .invalidCharacter(url: shown)
        }
        let rest = text[separator.upperBound...]
        guard !rest.contains("#") else { throw .fragmentNotAllowed(url: shown) }

        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@") else { throw .userInfoNotSupported(url: shown) }

        let (host, portText) = try Self.splitAuthority(authority, shown: shown)
        guard !host.isEmpty else { throw .missingHost(url: shown) }
        guard Self.isValidHost(host) else { throw .invalidHost(url: shown, host: host) }

        var port = scheme.defaultPort
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number), portText.allSatisfy(\.isASCII) else {
                throw .invalidPort(url: shown, port: portText)
            }
            port = number
        }

        let target = rest[authorityEnd...]
        let queryStart = target.firstIndex(of: "?")
        let pathPart = target[..<(queryStart ?? target.endIndex)]
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = pathPart.isEmpty ? "/" : String(pathPart)
        self.query = queryStart.map { String(target[target.index(after: $0)...]) }
    }

    /// Whether the connection uses TLS.
    package var isSecure: Bool { scheme == .wss }

    /// The HTTP request target of the upgrade request: path and query.
    package var requestTarget: String {
        guard let query else { return path }
        return path + "?" + query
    }

    /// The value for the `Host` header: the host (bracketed if IPv6), with the port when it
    /// is not the scheme's default.
    package var hostHeader: String {
        let hostPart = URLHost.bracketed(host)
        return port == scheme.defaultPort ? hostPart : "\(hostPart):\(port)"
    }

    /// The full URL, credentials included. Use `redactedDescription` for anything a person reads.
    package var urlString: String {
        "\(scheme.rawValue)://\(hostHeader)\(requestTarget)"
    }

    /// The URL with the values of secret-looking query parameters (`token`, `api_key`, `apikey`,
    /// `key`, `access_token`, `auth`, `password`, `secret`, and names ending in `token`, `_key`,
    /// `-key`, `secret` or `password`; case-insensitive) replaced by `REDACTED`.
    package var redactedDescription: String {
        guard let query else { return urlString }
        return "\(scheme.rawValue)://\(hostHeader)\(path)?\(URLQuery.redacting(query))"
    }

    package var description: String { redactedDescription }

    /// The percent-decoded value of the first query parameter with this name.
    package func queryValue(named name: String) -> String? {
        query.flatMap { URLQuery.value(of: name, in: $0) }
    }

    /// A copy with `name=value` appended to the query (both percent-encoded), e.g. for
    /// query-token authentication.
    package func addingQueryItem(name: String, value: String) -> WebSocketEndpoint {
        var copy = self
        let item = URLQuery.percentEncoded(name) + "=" + URLQuery.percentEncoded(value)
        if let query, !query.isEmpty {
            copy.query = query + "&" + item
        } else {
            copy.query = item
        }
        return copy
    }

    private static func splitAuthority(
        _ authority: Substring,
        shown: String
    ) throws(EndpointError) -> (host: String, port: String?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidHost(url: shown, host: String(authority))
            }
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { throw .invalidHost(url: shown, host: String(authority)) }
            return (host, String(after.dropFirst()))
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (String(parts[0]), nil)
        case 2: return (String(parts[0]), String(parts[1]))
        default: throw .invalidHost(url: shown, host: String(authority))
        }
    }

    /// Host names (letters, digits, `-._~`, percent-escapes) and bracketless IPv6 literals
    /// (hex digits, `:`, `.`, and a `%zone`).
    private static func isValidHost(_ host: String) -> Bool {
        if host.contains(":") {
            return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" || $0.isLetter }
        }
        return host.allSatisfy { char in
            char.isASCII && (char.isLetter || char.isNumber || "-._~%".contains(char))
        }
    }
}
