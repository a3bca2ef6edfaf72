import ArgumentParser
import Foundation
import VoiceLoad

/// `vload wire`: a dialect's client codec driven by a script on standard input, outside any
/// socket, so the conformance suite can check its frames with the official SDKs' models and
/// feed it what real servers send (docs/conformance.md). Not listed in `vload --help`.
struct WireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wire",
        abstract: "Drive a dialect's codec with a JSON-lines script on stdin (for conformance tests).",
        discussion: """
            Each line of standard input is one action: {"send": "open" | "start" | "audio" | \
            "end_of_utterance" | "interrupt" | "commit" | "keep_alive" | "stop" | "text" | \
            "tool_result" | "playback_truncated" | "mark_played" | "dtmf" | "configure", …}, \
            {"receive": {"text": …} | {"binary": "<base64>"}} or {"endpoint": "wss://…"}. Each \
            is answered \
            by one JSON line on standard output: the frames the codec wrote, the normalized \
            events and replies of a received frame, or the URL the dialect connects to \
            (docs/conformance.md).
            """,
        shouldDisplay: false
    )

    @Option(help: "The dialect whose client codec to drive (default: the scenario's, else datagrid).")
    var dialect: String?

    @Option(name: .customLong("dialect-file"), help: "A custom dialect described in YAML.")
    var dialectFile: String?

    @Option(help: "A scenario whose session parameters the codec uses (a name in scenarios/ or a path).")
    var scenario: String?

    @Option(help: "The URL a run would connect to, for dialects that check what a service accepts (default: none).")
    var url: String?

    func run() throws {
        var parameters: [String: JSONValue] = [:]
        var scenarioDialect: String?
        if let scenario {
            let loaded = try ScenarioLoader.loadForCommandLine(path: try ScenarioLoader.locateForCommandLine(scenario))
            parameters = loaded.sessionParameters
            scenarioDialect = loaded.dialect
        }
        let resolved = try ResolvedDialect(id: dialect ?? scenarioDialect ?? "datagrid", file: dialectFile)
        var script = try WireScript(dialect: resolved.dialect, parameters: parameters, url: url ?? "")
        while let line = readLine(strippingNewline: true) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            print(script.answerText(line: line))
        }
    }
}
