import Foundation
import WSCore

/// An http:// or https:// URL for a REST pre-step (Datagrid `POST /v1/voice`).
package struct HTTPEndpoint: Sendable, Hashable, CustomStringConvertible {
    package var isSecure: Bool
    package var host: String
    package var port: Int
    /// Path and query, "/" when empty.
    package var requestTarget: String

    /// Parses an http(s) URL; nil for anything else.
    package init?(parsing text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        isSecure = scheme == "https"
        // An IPv6 literal comes bracketed, as the URL writes it ("[::1]"); the host is kept bare,
        // as getaddrinfo takes it, and `hostHeader` brackets it again.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (isSecure ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        requestTarget = path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    package var hostHeader: String {
        let defaultPort = isSecure ? 443 : 80
        let bracketed = URLHost.bracketed(host)
        return port == defaultPort ? bracketed : "\(bracketed):\(port)"
    }

    /// The URL without its query (which may hold secrets).
    package var description: String {
        let path = requestTarget.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        return "\(isSecure ? "https" : "http")://\(hostHeader)\(path)"
    }
}
