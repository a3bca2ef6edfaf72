/// The optional REST step of a custom dialect (`connect.pre_request`, PROTOCOLS.md §11.3),
/// read and validated at load time with `${env.NAME}` resolved. vload does not perform it
/// yet: variables it would capture stay unset (they render as empty text, or `null` with a
/// type suffix).
public struct CustomPreRequest: Sendable {
    /// `GET`, `POST`…
    public var method: String
    public var url: String
    /// Header names and values, in file order.
    public var headers: [(String, String)]
    /// The JSON body, when the step declares one.
    public var jsonBody: String?
    /// Variables lifted from the JSON response: name and path (`session_id` ← `$.id`).
    public var captures: [(name: String, path: String)]

    public init(method: String, url: String, headers: [(String, String)], jsonBody: String?, captures: [(name: String, path: String)]) {
        self.method = method
        self.url = url
        self.headers = headers
        self.jsonBody = jsonBody
        self.captures = captures
    }
}
