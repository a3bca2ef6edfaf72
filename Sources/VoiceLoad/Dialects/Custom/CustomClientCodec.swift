import Foundation
import WSCore

/// The client side of one connection of a custom dialect: renders the dialect's templates
/// with this connection's counters, captured variables and session parameters, and maps
/// inbound frames to events, captures and replies. Pure but for `${uuid}`, `${digits:N}` and
/// `${now_iso}`, drawn from the random generator and clock it is given.
package struct CustomClientCodec: ClientCodec {
    package let dialect: CustomDialect
    /// The scenario's session parameters (`${session}`).
    package let parameters: [String: JSONValue]
    /// Captured variables (`${var.NAME}`).
    private(set) var variables: [String: JSONValue] = [:]
    /// The last `${seq}` drawn.
    private(set) var seq = 0
    /// Audio frames sent so far (`${chunk}`).
    private(set) var chunks = 0
    /// Audio bytes sent so far (`${ts_ms}`).
    private(set) var audioBytes = 0
    /// Where generated placeholders come from.
    private var entropy: TemplateEntropy

    package init(dialect: CustomDialect, parameters: [String: JSONValue], entropy: TemplateEntropy) {
        self.dialect = dialect
        self.parameters = parameters
        self.entropy = entropy
    }

    /// The REST pre-step's captures become variables, as if a frame had set them.
    package mutating func adoptRESTSetup(_ setup: RESTSetup) {
        variables.merge(setup.variables) { _, captured in captured }
    }

    private var templates: CustomSendTemplates { dialect.templates }

    package mutating func framesOnOpen() -> [WireFrame] {
        templates.onOpen.map { render($0, session: parameters) }
    }

    package mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        let position = advanceAudio(byteCount: audio.byteCount)
        if let shared = audio.sharedFrame { return shared }
        guard let template = templates.audio else { return EncodedFrame(.binary([])) }
        return EncodedFrame(render(template, audioBase64: audio.base64 ?? "", tsMs: position))
    }

    package mutating func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .start(let startParameters):
            return templates.onOpen.map { render($0, session: startParameters) }
        case .audio(let bytes):
            let position = advanceAudio(byteCount: bytes.count)
            guard let template = templates.audio else { return [.binary(bytes)] }
            return [render(template, audioBase64: Data(bytes).base64EncodedString(), tsMs: position)]
        case .interrupt:
            return templates.interrupt.map { [render($0)] } ?? []
        case .commit:
            return templates.commit.map { [render($0)] } ?? []
        case .keepAlive:
            return templates.keepAlive.map { [render($0)] } ?? []
        case .stop:
            return templates.close.map { [render($0)] } ?? []
        case .text(let text):
            return templates.text.map { [render($0, text: text)] } ?? []
        case .toolResult, .markPlayed, .playbackTruncated, .dtmf, .configure:
            return []
        }
    }

    package mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        let rules = dialect.rules
        let inbound = InboundFrame(frame, parsesBinaryAsJSON: rules.parsesBinaryAsJSON, needsRawText: dialect.usesRawText)
        var recognized = false
        for capture in rules.captures where capture.apply(to: inbound, variables: &variables) {
            recognized = true
        }
        let decoded = rules.events(in: inbound)
        var events = decoded.events
        recognized = recognized || decoded.recognized
        var replies: [CodecReply] = []
        for reply in rules.replies where reply.matcher.matches(inbound) {
            recognized = true
            replies.append(CodecReply(render(reply.template, message: inbound), timing: reply.timing))
        }
        if events.isEmpty, !recognized { events = [rules.unrecognizedEvent(inbound)] }
        return DecodedFrame(events: events, replies: replies)
    }

    /// Counts one audio frame; returns the stream position of its first sample, in ms.
    private mutating func advanceAudio(byteCount: Int) -> Int {
        let position = Int(dialect.inputFormat.durationUs(byteCount: audioBytes) / 1_000)
        chunks += 1
        audioBytes += byteCount
        return position
    }

    private mutating func render(
        _ template: MessageTemplate,
        session: [String: JSONValue]? = nil,
        audioBase64: String? = nil,
        tsMs: Int? = nil,
        message: InboundFrame? = nil,
        text: String? = nil
    ) -> WireFrame {
        if template.usesSeq { seq += 1 }
        let context = TemplateContext(
            audioBase64: audioBase64,
            seq: seq,
            chunk: chunks,
            tsMs: tsMs ?? Int(dialect.inputFormat.durationUs(byteCount: audioBytes) / 1_000),
            variables: variables,
            session: session ?? parameters,
            message: message,
            text: text,
            generated: template.generated.map { entropy.value(of: $0) }
        )
        return templates.frame(template.render(context))
    }
}
