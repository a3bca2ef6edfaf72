import Foundation
import WSCore

/// A JSON object from an ADK server frame, read leniently: members are looked up under
/// several spellings (ADK serializes camelCase with `by_alias`, snake_case without), and
/// `null` reads as absent (`exclude_none` servers never send it; others might).
struct ADKJSONObject {
    let members: [String: JSONValue]

    /// The object in `frame` (JSON in a text or a binary frame), or why the frame is not one.
    static func parse(_ frame: WireFrame) -> Result<ADKJSONObject, JSONFrameError> {
        JSONFrame.object(in: frame).map(ADKJSONObject.init(members:))
    }

    /// The first non-null member among `names`.
    func value(_ names: String...) -> JSONValue? {
        for name in names {
            if let value = members[name], value != .null { return value }
        }
        return nil
    }

    /// Whether the object has a non-null member among `names`.
    func has(_ names: [String]) -> Bool {
        names.contains { name in members[name].map { $0 != .null } ?? false }
    }

    /// A name for an object of no known shape, from its keys: `{a,b}`.
    var shapeDescription: String {
        "{" + members.keys.sorted().joined(separator: ",") + "}"
    }

    /// The events of one audio payload whose base64 (or base64url) text is `data`, in
    /// `format`: none when empty, `.malformed` when it is not a base64 string.
    static func audioEvents(data: JSONValue?, format: AudioFormat, source: String) -> [NormalizedEvent] {
        let base64: String
        switch data {
        case nil, .some(.null): return []
        case .some(.string(let text)): base64 = text
        case .some(let other):
            return [.malformed(reason: "\(source) data is \(JSONFrame.kindName(of: other)), not a string")]
        }
        if base64.isEmpty { return [] }
        guard let bytes = ADKBase64.decode(base64) else {
            return [.malformed(reason: "\(source) data is not valid base64 (\(base64.utf8.count) characters)")]
        }
        if bytes.isEmpty { return [] }
        return [.agentAudio(AgentAudioChunk(audio: bytes, format: format))]
    }

    /// The events of the turn flags, evaluated on every frame: `interrupted: true` →
    /// `.agentInterrupted`, then `turn_complete` / `turnComplete: true` → `.turnComplete`
    /// (an interruption acknowledgement ends the turn first, docs/metrics.md).
    func flagEvents() -> [NormalizedEvent] {
        var events: [NormalizedEvent] = []
        if value("interrupted")?.boolValue == true { events.append(.agentInterrupted) }
        if value("turnComplete", "turn_complete")?.boolValue == true { events.append(.turnComplete(turnKey: nil)) }
        return events
    }

    /// The keys of the turn flags, in every spelling.
    static let flagKeys = ["interrupted", "turnComplete", "turn_complete"]
}
