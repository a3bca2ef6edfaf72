/// A host as a URL or a `Host` header writes it: an IPv6 literal in brackets (RFC 3986 §3.2.2),
/// any other host as it is.
package enum URLHost {
    package static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
