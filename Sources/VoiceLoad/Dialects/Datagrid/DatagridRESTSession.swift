import Foundation

/// Datagrid's REST-prepared session (docs/dialects.md): `POST /v1/voice` with a
/// Bearer key and the session fields as the body; the answer holds the WebSocket URL (with a
/// short-lived hand-off token) and the `start_message` to send first, verbatim.
extension DatagridClientDialect {
    package func restSetupRequest(parameters: [String: JSONValue], token: String?) -> RESTSetupRequest? {
        var headers = [HTTPHeaderField(name: "Content-Type", value: "application/json")]
        if let token, !token.isEmpty { headers.append(HTTPHeaderField(name: "Authorization", value: "Bearer \(token)")) }
        let body = JSONFrame.text(JSONValue.object(parameters).replacingNonFiniteNumbers().foundationObject as? [String: Any] ?? [:])
        return RESTSetupRequest(method: "POST", headers: headers, body: Array(body.utf8))
    }

    package func restSetup(from responseBody: [UInt8], request: RESTSetupRequest) -> RESTSetup? {
        guard case .success(let object) = JSONFrame.object(in: .binary(responseBody)),
            let url = object["url"] as? String, !url.isEmpty
        else { return nil }
        var opening: [WireFrame] = []
        if let start = object["start_message"] as? [String: Any] {
            opening.append(JSONFrame.frame(JSONFrame.text(start), asBinary: sendsJSONAsBinary))
        }
        return RESTSetup(webSocketURL: url, openingFrames: opening)
    }
}

extension DatagridServerDialect {
    /// The simulator's `POST /v1/voice`: the request body becomes the `start_message` payload.
    package func restSessionResponse(requestBody: [UInt8], webSocketURL: String) -> [UInt8]? {
        var payload: [String: Any] = [:]
        if !requestBody.isEmpty {
            guard case .success(let object) = JSONFrame.object(in: .binary(requestBody)) else { return nil }
            payload = object
        }
        let response: [String: Any] = [
            "object": "voice.session",
            "url": webSocketURL,
            "agent_id": payload["agent_id"] as? String ?? "agent_sim",
            "start_message": ["type": DatagridMessage.Name.start, "payload": payload] as [String: Any],
        ]
        return Array(JSONFrame.text(response).utf8)
    }
}
