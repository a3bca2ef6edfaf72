import Foundation
import WSCore

/// Datagrid's REST-prepared session (docs/dialects.md): `POST /v1/voice` with a
/// Bearer key and the session fields as the body; the answer holds the WebSocket URL (with a
/// short-lived hand-off token) and the `start_message` to send first, verbatim.
extension DatagridClientDialect {
    package func restSetupRequest(parameters: [String: JSONValue], token: String?) -> RESTSetupRequest? {
        var headers = [HTTPHeaderField(name: "Content-Type", value: "application/json")]
        if let token, !token.isEmpty { headers.append(HTTPHeaderField(name: "Authorization", value: "Bearer \(token)")) }
        let body = JSONFrame.text(parameters)
        return RESTSetupRequest(method: "POST", headers: headers, body: Array(body.utf8))
    }

    package func restSetup(from responseBody: [UInt8], request: RESTSetupRequest) -> RESTSetup? {
        guard case .success(let object) = JSONFrame.object(in: .binary(responseBody)),
            let url = object["url"]?.stringValue, !url.isEmpty
        else { return nil }
        var opening: [WireFrame] = []
        if let start = object["start_message"]?.objectValue {
            opening.append(JSONFrame.frame(JSONFrame.text(start), asBinary: sendsJSONAsBinary))
        }
        return RESTSetup(webSocketURL: url, openingFrames: opening)
    }
}

extension DatagridServerDialect {
    /// The simulator's `POST /v1/voice`: the request body becomes the `start_message` payload.
    package func restSessionResponse(requestBody: [UInt8], webSocketURL: String) -> [UInt8]? {
        var payload: [String: JSONValue] = [:]
        if !requestBody.isEmpty {
            guard case .success(let object) = JSONFrame.object(in: .binary(requestBody)) else { return nil }
            payload = object
        }
        let response: [String: JSONValue] = [
            "object": "voice.session",
            "url": JSONValue(webSocketURL),
            "agent_id": .string(payload["agent_id"]?.stringValue ?? "agent_sim"),
            "start_message": ["type": JSONValue(DatagridMessage.Name.start), "payload": JSONValue(payload)],
        ]
        return Array(JSONFrame.text(response).utf8)
    }
}
