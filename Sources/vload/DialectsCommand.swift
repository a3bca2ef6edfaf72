import ArgumentParser
import VoiceLoad

/// `vload dialects`: the wire protocols vload speaks, with what each can measure: the built-in
/// dialects, then the shipped dialect files `--dialect NAME` finds (docs/dialects.md).
struct DialectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dialects",
        abstract: "List the dialects (wire protocols) with their ready signal, audio formats and metrics.",
        discussion: """
            Built-in dialects first, then the dialect files --dialect NAME finds when NAME is not \
            built in, searched in this order: $VLOAD_DIALECTS_DIR, ./dialects, \
            <vload's directory>/../share/vload/dialects, the source checkout's dialects/ \
            (docs/dialects.md). Any other file runs with --dialect-file PATH; 'vload help \
            dialect-format' is the file format's reference.
            """
    )

    func run() throws {
        for id in DialectRegistry.clientIDs {
            guard let dialect = try? DialectRegistry.client(id) else { continue }
            print(Self.describe(dialect))
            print("")
        }
        let searchPath = DialectSearchPath.standard()
        for file in searchPath.files() {
            print(Self.describeFile(name: file.name, path: file.path))
            print("")
        }
    }

    /// A shipped dialect file: its name and path, then what it says (or why it does not load here).
    static func describeFile(name: String, path: String) -> String {
        guard !DialectRegistry.clientIDs.contains(name) else {
            return "\(name) (file: \(path))\n  not reachable by name: the built-in \(name) comes first; use --dialect-file \(path)"
        }
        do {
            let dialect = try CustomDialect.load(path: path)
            let about = dialect.about.map { "\n  \($0)" } ?? ""
            let lines = describe(dialect).split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            return "\(name) (file: \(path)" + (dialect.id == name ? "" : ", dialect id \(dialect.id)") + ")" + about + "\n"
                + lines.joined(separator: "\n")
        } catch {
            return "\(name) (file: \(path))\n  does not load here: \(error.message)"
        }
    }

    static func describe(_ dialect: any ClientDialect) -> String {
        let ready = dialect.readySignal == .event ? "a ready event from the server" : "the WebSocket open"
        let turnEnd: String
        switch dialect.turnEndSignal {
        case .event: turnEnd = "an end-of-turn event"
        case .audioGap: turnEnd = "a quiet gap in agent audio"
        case .eventOrAudioGap: turnEnd = "an end-of-turn event, else a quiet gap in agent audio"
        }
        let output = dialect.repliesWithAudio ? dialect.outputFormat.description : "none (answers with transcripts)"
        let metrics = dialect.measures.sorted().map(\.rawValue).joined(separator: ", ")
        return """
            \(dialect.id)
              api version:  \(dialect.apiVersion)
              ready:        \(ready)
              audio in:     \(dialect.inputFormat), \(dialect.defaultFrameMs) ms frames
              audio out:    \(output)
              turn end:     \(turnEnd)
              credentials:  \(credentials(dialect.authentication))
              metrics:      \(metrics)
            """
    }

    private static func credentials(_ style: AuthenticationStyle) -> String {
        switch style {
        case .queryParameter(let name): return "--token as query parameter '\(name)'"
        case .header(let name, let prefix): return "--token in header '\(name): \(prefix)KEY'"
        case .subprotocol(let marker): return "--token as subprotocol '\(marker), KEY'"
        case .sessionParameter(let name): return "--token in the session parameters as '\(name)'"
        case .none: return "none (use --header if the server needs one)"
        }
    }
}
