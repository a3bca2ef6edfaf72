/// A docs page that `vload help NAME` prints: embedded in the binary (`HelpTopic.all`, written
/// by scripts/generate-help-topics into HelpTopicPages.swift), so it reads the same offline and
/// with no repository around the binary, as in the Docker image.
package struct HelpTopic: Sendable, Hashable {
    /// What follows `vload help`: `metrics`.
    package var name: String
    /// One line for `vload --help`.
    package var summary: String
    /// The docs page it comes from, relative to the repository's root: `docs/metrics.md`.
    package var page: String
    /// The heading its text starts at (down to the next heading of that level or higher); nil:
    /// the whole page.
    package var heading: String?
    /// The page (or its section) as Markdown, ending in a line break.
    package var text: String

    package init(name: String, summary: String, page: String, heading: String?, text: String) {
        self.name = name
        self.summary = summary
        self.page = page
        self.heading = heading
        self.text = text
    }

    package static func named(_ name: String) -> HelpTopic? {
        all.first { $0.name == name }
    }

    /// The topic `vload help WORD` asks for (`arguments`: the command line after the program's
    /// name), or nil when it is not a topic request: anything but `help` and one word, or a word
    /// that is one of `commands` (`vload help run` stays the command's own help). A word that is
    /// neither a command nor a topic is bad input.
    package static func requested(by arguments: [String], commands: [String]) throws(InputError) -> HelpTopic? {
        guard arguments.count == 2, arguments[0] == "help" else { return nil }
        let word = arguments[1]
        guard !word.hasPrefix("-"), !commands.contains(word) else { return nil }
        guard let topic = named(word) else {
            let names = all.map(\.name)
            let guess = NameSuggestion.nearest(to: word, in: names + commands).map { "did you mean '\($0)'? " } ?? ""
            throw InputError(
                "unknown help topic '\(word)': \(guess)the topics are \(names.joined(separator: ", ")); "
                    + "'vload help COMMAND' explains a command (\(commands.joined(separator: ", ")))"
            )
        }
        return topic
    }

    /// The topics for `vload --help`, one a line: `  vload help metrics          every metric…`.
    package static var overview: String {
        let width = (all.map(\.name.count).max() ?? 0) + 2
        return all.map { topic in
            "  vload help " + topic.name + String(repeating: " ", count: width - topic.name.count) + topic.summary
        }.joined(separator: "\n")
    }
}
