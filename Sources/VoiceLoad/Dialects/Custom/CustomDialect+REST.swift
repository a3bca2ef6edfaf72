import WSClient

/// A custom dialect's REST pre-step (`connect.pre_request`, docs/custom-dialects.md), taken before
/// every session's WebSocket and timed as `rest_setup_ms`.
///
/// The request goes to the run's URL when that is http(s), else to `pre_request.url`. The
/// session then connects to the answer's captured `ws_url`, else the run's own ws(s) URL, else
/// `connect.url` rendered with the captured variables. Credentials travel in the step's
/// headers through `${env.NAME}`, so the run's token is not used.
extension CustomDialect {
    package func restSetupRequest(parameters: [String: JSONValue], token: String?) -> RESTSetupRequest? {
        preRequest?.request
    }

    /// With a `pre_request`, every session starts with it; without one, the run's URL decides.
    package func connectionTarget(url: String, parameters: [String: JSONValue], token: String?) throws(InputError) -> ConnectionTarget? {
        guard let preRequest else { return nil }
        var request = preRequest.request
        if let restEndpoint = HTTPEndpoint(parsing: url) {
            if !preRequest.capturesWebSocketURL { try checkConnectURL() }
            return .rest(restEndpoint, request)
        }
        do {
            _ = try WebSocketEndpoint(parsing: url)
        } catch {
            throw InputError(error.description)
        }
        guard let restEndpoint = HTTPEndpoint(parsing: preRequest.url) else {
            throw InputError("\(sourcePath): 'pre_request.url' must be an http:// or https:// URL")
        }
        request.webSocketURL = url
        return .rest(restEndpoint, request)
    }

    /// The captured variables, and where to connect; nil when the answer is not JSON (and
    /// something is to be captured) or nothing names a WebSocket.
    package func restSetup(from responseBody: [UInt8], request: RESTSetupRequest) -> RESTSetup? {
        guard let preRequest, let variables = preRequest.capturedVariables(from: responseBody) else { return nil }
        var capturedURL: String?
        if case .string(let url)? = variables[CustomPreRequest.webSocketURLVariable], !url.isEmpty { capturedURL = url }
        guard let url = capturedURL ?? request.webSocketURL ?? connectURL(variables: variables) else { return nil }
        return RESTSetup(webSocketURL: url, openingFrames: nil, variables: variables)
    }

    /// `connect.url` rendered with `variables`; nil without one, or when it uses an unset
    /// environment variable.
    package func connectURL(variables: [String: JSONValue]) -> String? {
        guard let compiledURL, compiledURL.unsetEnvironmentName == nil else { return nil }
        return compiledURL.render(TemplateContext(variables: variables))
    }

    /// After a `pre_request` at the run's http(s) URL whose answer is not asked for `ws_url`,
    /// `connect.url` is the only way to the WebSocket: it must exist and be complete.
    private func checkConnectURL() throws(InputError) {
        guard let compiledURL else {
            throw InputError(
                "\(sourcePath): nothing names the WebSocket to connect to after pre_request: capture "
                    + "'\(CustomPreRequest.webSocketURLVariable)' from its answer, set connect.url, or give a ws:// or wss:// --url"
            )
        }
        if let name = compiledURL.unsetEnvironmentName {
            throw InputError("\(sourcePath): environment variable '\(name)' is not set (used by connect.url)")
        }
    }
}
