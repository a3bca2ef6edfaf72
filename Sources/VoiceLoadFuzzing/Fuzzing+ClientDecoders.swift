import Foundation
import NIOCore
import VoiceLoad
import WSCore

extension Fuzzing {
    /// The client dialects the client decoder target chooses from: every registered dialect,
    /// then the custom dialects of `FuzzDialects`.
    static let clientDialects: [any ClientDialect] = {
        var dialects: [any ClientDialect] = []
        for id in DialectRegistry.ids {
            do {
                dialects.append(try DialectRegistry.client(id))
            } catch {
                preconditionFailure("registered dialect \(id) is unknown: \(error)")
            }
        }
        return dialects + FuzzDialects.all
    }()

    /// The client decoder target: the frames of a `FuzzFrameSequence`, decoded in order by one
    /// codec of the chosen dialect.
    static func clientDecoding(_ payload: [UInt8]) -> FuzzOutcome {
        let (selector, frames) = FuzzFrameSequence.decode(payload)
        return checkClientDecoding(dialect: clientDialects[selector % clientDialects.count], frames: frames)
    }

    /// Decodes `frames` in order with one codec of `dialect` (a custom dialect's with fixed
    /// entropy) and checks what came out: every event within its documented bounds
    /// (`violations(of:)`), every reply's delay within an hour, and the same events from a
    /// second codec fed the same frames (replies may carry a per-connection identity, such as
    /// Twilio's stream id).
    package static func checkClientDecoding(dialect: any ClientDialect, frames: [WireFrame]) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        let decoded = decodeAll(frames, dialect: dialect)
        for frame in decoded {
            for event in frame.events {
                if case .malformed = event { outcome.accepted = false }
                outcome.violations += violations(of: event, dialect: dialect.id)
            }
            for reply in frame.replies {
                if case .afterMs(let delayMs) = reply.timing {
                    outcome.check(
                        (0...CustomDialectLoader.maxReplyDelayMs).contains(delayMs),
                        "\(dialect.id): a reply is due \(delayMs) ms after its frame"
                    )
                }
            }
        }
        outcome.check(
            decodeAll(frames, dialect: dialect).map(\.events) == decoded.map(\.events),
            "\(dialect.id): decoding the same frames twice gives other events"
        )
        return outcome
    }

    /// The longest span a decoded event may carry: one day, in seconds.
    static let maxEventSpanS = 86_400.0

    /// How `event` breaks the bounds the client relies on: a non-empty reason for what is
    /// malformed; agent audio with bytes, a duration and a level in 0…1; server latencies of
    /// 0 to one day; speech-to-text positions of 0 to one day.
    static func violations(of event: NormalizedEvent, dialect: String) -> [String] {
        var outcome = FuzzOutcome()
        switch event {
        case .malformed(let reason):
            outcome.check(!reason.isEmpty, "\(dialect): .malformed with an empty reason")
        case .agentAudio(let chunk):
            outcome.check(
                chunk.byteCount > 0 && chunk.durationUs >= 0,
                "\(dialect): agent audio of \(chunk.byteCount) bytes, \(chunk.durationUs) µs"
            )
            outcome.check((0...1).contains(chunk.rmsLevel), "\(dialect): agent audio level \(chunk.rmsLevel)")
        case .serverLatency(let name, let valueUs):
            outcome.check((0...Int64(maxEventSpanS) * 1_000_000).contains(valueUs), "\(dialect): server latency \(name) = \(valueUs) µs")
        case .speechResult(let result):
            let span = 0...maxEventSpanS
            outcome.check(
                span.contains(result.startS) && span.contains(result.durationS),
                "\(dialect): speech result at \(result.startS) s for \(result.durationS) s"
            )
        default:
            break
        }
        return outcome.violations
    }

    private static func decodeAll(_ frames: [WireFrame], dialect: any ClientDialect) -> [DecodedFrame] {
        var codec = makeCodec(dialect)
        return frames.map { codec.receive($0) }
    }

    /// A codec of `dialect`; a custom dialect's draws `${uuid}` and reads `${now_iso}` from a
    /// fixed seed and clock, so it decodes the same way every time.
    static func makeCodec(_ dialect: any ClientDialect, parameters: [String: JSONValue] = [:]) -> any ClientCodec {
        if let custom = dialect as? CustomDialect {
            return CustomClientCodec(dialect: custom, parameters: parameters, entropy: fixedEntropy)
        }
        return dialect.makeCodec(parameters: parameters)
    }

    static var fixedEntropy: TemplateEntropy {
        TemplateEntropy(seed: 7, now: { Date(timeIntervalSince1970: 1_700_000_000) })
    }

    /// `frame` as a dialect would see it on the wire.
    static func wireFrame(_ frame: EncodedFrame) -> WireFrame {
        switch frame.kind {
        case .text: return .text(String(buffer: frame.payload))
        case .binary: return .binary(Array(frame.payload.readableBytesView))
        }
    }

    /// Whether `text` is JSON; JSON nested deeper than `JSONSerialization` reads counts as JSON.
    static func isJSON(_ text: String) -> Bool {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            return true
        } catch {
            return "\(error)".contains("nested")
        }
    }
}
