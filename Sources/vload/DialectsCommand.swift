import ArgumentParser
import VoiceLoad

/// `vload dialects`: the wire protocols vload speaks, with what each can measure.
struct DialectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dialects",
        abstract: "List the dialects (wire protocols) with their ready signal, audio formats and metrics."
    )

    func run() throws {
        for id in DialectRegistry.ids {
            guard let dialect = try? DialectRegistry.client(id) else { continue }
            print(Self.describe(dialect))
            print("")
        }
    }

    static func describe(_ dialect: any ClientDialect) -> String {
        let ready = dialect.readySignal == .event ? "a ready event from the server" : "the WebSocket open"
        let turnEnd = dialect.turnEndSignal == .event ? "an end-of-turn event" : "a quiet gap in agent audio"
        let output = dialect.repliesWithAudio ? dialect.outputFormat.description : "none (answers with transcripts)"
        let metrics = dialect.measures.sorted().map(\.rawValue).joined(separator: ", ")
        return """
            \(dialect.id)
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
