/// One type of inbound frame no rule of the dialect matched (`unknown_event_types` in
/// report.json): how many frames of it came, and the first one as an example, made by
/// `Redactor.unknownEventExample(_:)` (secrets masked, base64 shortened, cut short).
package struct UnknownEventType: Codable, Sendable, Hashable {
    /// How many distinct types a run keeps; frames of further types count only in `unknown_events`.
    package static let maxTypes = 20
    /// The longest example, in UTF-8 bytes.
    package static let maxExampleBytes = 200
    /// The longest type name kept, in characters (a type is the server's text).
    package static let maxTypeCharacters = 80

    /// The frame's type (`$.type`, the dialect's `message_type`, or its shape: `{goAway}`).
    package var type: String
    package var count: Int
    package var example: String

    package init(type: String, count: Int, example: String) {
        self.type = type
        self.count = count
        self.example = example
    }

    /// The types most frequent first, then by name.
    package static func ordered(_ types: some Sequence<UnknownEventType>) -> [UnknownEventType] {
        types.sorted { ($1.count, $0.type) < ($0.count, $1.type) }
    }

    /// The types of several runs: counts of one type summed, the first run's example kept,
    /// at most `maxTypes` (the most frequent).
    package static func merged(_ runs: [[UnknownEventType]]) -> [UnknownEventType] {
        var byType: [String: UnknownEventType] = [:]
        for run in runs {
            for type in run {
                if byType[type.type] == nil { byType[type.type] = type } else { byType[type.type]?.count += type.count }
            }
        }
        return Array(ordered(byType.values).prefix(maxTypes))
    }

    /// `type` as it is kept: on one line, at most `maxTypeCharacters`.
    static func name(_ type: String) -> String {
        let line = Redactor.oneLine(type)
        return line.count > maxTypeCharacters ? String(line.prefix(maxTypeCharacters - 1)) + "…" : line
    }
}
