import Foundation
import Testing

@testable import VoiceLoad

@Suite("Help topics")
struct HelpTopicTests {
    static let commands = ["run", "capacity", "merge", "compare", "validate", "serve", "dialects", "wire", "help"]

    /// The text of `page` from the line of `heading` (any level) down to the next heading of that
    /// level or higher, outside fenced code; nil heading: the whole page. Trailing blank lines
    /// dropped, every line ending in a line break: what scripts/generate-help-topics embeds.
    static func section(of page: String, from heading: String?) -> String? {
        var kept: [Substring] = []
        var inside = heading == nil
        var level = 0
        var fenced = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            let hashes = line.prefix { $0 == "#" }.count
            if !fenced, hashes > 0, line.dropFirst(hashes).first.map({ $0 == " " }) ?? true {
                let title = line.dropFirst(hashes).trimmingCharacters(in: CharacterSet(charactersIn: " "))
                if inside, level > 0, hashes <= level { break }
                if !inside, title == heading {
                    inside = true
                    level = hashes
                }
            }
            let unindented = line.drop { $0 == " " }
            if line.count - unindented.count <= 3, unindented.hasPrefix("```") || unindented.hasPrefix("~~~") { fenced.toggle() }
            if inside { kept.append(line) }
        }
        guard inside else { return nil }
        while let last = kept.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { kept.removeLast() }
        return kept.map { $0 + "\n" }.joined()
    }

    @Test("every topic is its docs page as it stands (else run scripts/generate-help-topics)", arguments: HelpTopic.all.map(\.name))
    func matchesPage(name: String) throws {
        let topic = try #require(HelpTopic.named(name))
        let path = repositoryRoot() + "/" + topic.page
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let expected = try #require(Self.section(of: page, from: topic.heading), "no heading '\(topic.heading ?? "")' in \(topic.page)")
        #expect(topic.text == expected, "\(topic.page) changed: run scripts/generate-help-topics")
    }

    @Test("metrics is the whole of docs/metrics.md; dialect-format is a docs page on dialect files")
    func knownTopics() throws {
        let metrics = try #require(HelpTopic.named("metrics"))
        let page = try String(contentsOfFile: repositoryRoot() + "/docs/metrics.md", encoding: .utf8)
        #expect(metrics.text == page)
        let format = try #require(HelpTopic.named("dialect-format"))
        #expect(format.page.hasPrefix("docs/") && format.page.hasSuffix(".md"))
        #expect(format.text.contains("dialect file"))
        #expect(format.text.hasSuffix("\n"))
    }

    @Test("'vload help TOPIC' is the topic's page")
    func request() throws {
        let topic = try HelpTopic.requested(by: ["help", "metrics"], commands: Self.commands)
        #expect(topic?.name == "metrics")
        #expect(topic?.text == HelpTopic.named("metrics")?.text)
        #expect(try HelpTopic.requested(by: ["help", "dialect-format"], commands: Self.commands)?.page.hasPrefix("docs/") == true)
    }

    @Test(
        "a command's help, and anything but 'help WORD', is left to the command line parser",
        arguments: [
            ["help", "run"], ["help", "dialects"], ["help", "help"], ["help"], ["help", "--help"], ["help", "run", "metrics"],
            ["metrics"], ["run", "help"], [],
        ]
    )
    func notATopic(arguments: [String]) throws {
        #expect(try HelpTopic.requested(by: arguments, commands: Self.commands) == nil)
    }

    @Test("an unknown topic is one line naming the topics")
    func unknownTopic() {
        #expect(
            throws: InputError(
                "unknown help topic 'metricz': did you mean 'metrics'? the topics are metrics, dialect-format; "
                    + "'vload help COMMAND' explains a command (run, capacity, merge, compare, validate, serve, dialects, wire, help)"
            )
        ) {
            try HelpTopic.requested(by: ["help", "metricz"], commands: Self.commands)
        }
        do throws(InputError) {
            _ = try HelpTopic.requested(by: ["help", "bogus"], commands: Self.commands)
            Issue.record("'vload help bogus' was accepted")
        } catch {
            #expect(error.message.hasPrefix("unknown help topic 'bogus': the topics are metrics, dialect-format;"))
            #expect(!error.message.contains("\n"))
        }
    }

    @Test("vload --help lists every topic with its summary")
    func overview() {
        let lines = HelpTopic.overview.split(separator: "\n")
        #expect(lines.count == HelpTopic.all.count)
        #expect(lines.first?.hasPrefix("  vload help metrics ") == true)
        for (line, topic) in zip(lines, HelpTopic.all) {
            #expect(line.hasSuffix(topic.summary))
            #expect(line.count <= 78, "'\(topic.name)': vload --help would wrap the line at 80 columns")
        }
    }
}
