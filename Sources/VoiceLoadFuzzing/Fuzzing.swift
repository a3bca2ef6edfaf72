import VoiceLoad

/// Fuzz targets for everything vload reads from outside: every dialect decoder (client side,
/// built-in and custom, and the simulator's server side), the REST pre-step's answer, the
/// WebSocket message assembler, the receive side's fast paths for flat JSON and base64 (against
/// Foundation), audio files, RTP, Opus and STUN packets, SDP answers, and the parsers of user input (scenario and
/// custom-dialect YAML, thresholds, stages, durations, arrival rates).
///
/// The libFuzzer executable (`vload-fuzz`) and the seeded property tests run the same targets,
/// so both check the same properties. A target takes any bytes and must never trap; it returns
/// the documented properties the input broke, none when the outcome is the documented one:
/// events (possibly `.malformed` or `.unknown`) or the decoder's typed error; a parsed value
/// within its bounds, or an error of one line naming its file or option.
///
/// An input is one byte choosing the target (modulo the number of targets), then the target's
/// payload: a `FuzzFrameSequence` for the decoders and the assembler, text for the parsers,
/// the file's bytes for audio.
package enum Fuzzing {
    /// What one input exercises.
    package enum Target: UInt8, CaseIterable, Sendable {
        /// `ClientCodec.receive` of every client dialect: built-in, and the custom dialects of
        /// `FuzzDialects`.
        case clientDecoder
        /// `ServerCodec.receive` of every server dialect, then what the codec sends back.
        case serverDecoder
        /// `WebSocketMessageAssembler.receive` on frames read from the bytes.
        case webSocketAssembler
        /// `ScenarioLoader.parse` on YAML text.
        case scenario
        /// `CustomDialect.parse` on YAML text, then the loaded dialect's templates and matchers.
        case customDialect
        /// `ThresholdExpression.parse`.
        case threshold
        /// `StageList.parse`.
        case stages
        /// `DurationText.milliseconds`.
        case duration
        /// `ArrivalRate.parse`.
        case arrivalRate
        /// `restSetup(from:request:)` of the dialects with a REST pre-step, and the simulator's
        /// `restSessionResponse`.
        case restAnswer
        /// `WAVReader.read` (through a temporary file) and `PreparedUtterance.prepare`.
        case audioFile
        /// `JSONValue.parse` and `JSONText` against `JSONSerialization`.
        case json
        /// `Base64Decoder.decode` against Foundation's base64.
        case base64
        /// `RTPPacket(parsing:)`, then the packet written and read again.
        case rtpPacket
        /// `OpusPacketDecoder.decode` of one agent packet.
        case opusPacket
        /// `STUNMessage(parsing:)` of one datagram, then the message written and read again.
        case stunMessage
        /// `SDPAnswer(parsing:)` of an answer's text.
        case sdpAnswer

        /// The target an input's first byte chooses.
        package init(selector: UInt8) {
            self = Self.allCases[Int(selector) % Self.allCases.count]
        }
    }

    /// Runs `input` against the target its first byte chooses; an empty input does nothing.
    package static func run(_ input: [UInt8]) -> FuzzOutcome {
        guard let first = input.first else { return FuzzOutcome(accepted: false) }
        return run(Target(selector: first), payload: Array(input.dropFirst()))
    }

    /// Runs `payload` against `target`.
    package static func run(_ target: Target, payload: [UInt8]) -> FuzzOutcome {
        switch target {
        case .clientDecoder: return clientDecoding(payload)
        case .serverDecoder: return serverDecoding(payload)
        case .webSocketAssembler: return assembling(payload)
        case .scenario: return scenarioParsing(text(payload))
        case .customDialect: return customDialectParsing(text(payload))
        case .threshold: return thresholdParsing(text(payload))
        case .stages: return stagesParsing(text(payload))
        case .duration: return durationParsing(text(payload))
        case .arrivalRate: return arrivalRateParsing(text(payload))
        case .restAnswer: return restAnswerReading(payload)
        case .audioFile: return audioFileReading(payload)
        case .json: return jsonReading(payload)
        case .base64: return base64Decoding(payload)
        case .rtpPacket: return rtpPacketParsing(payload)
        case .opusPacket: return opusPacketDecoding(payload)
        case .stunMessage: return stunMessageParsing(payload)
        case .sdpAnswer: return sdpAnswerParsing(text(payload))
        }
    }

    /// The input that runs `payload` against `target`.
    package static func input(_ target: Target, payload: [UInt8]) -> [UInt8] {
        [target.rawValue] + payload
    }

    /// The input that runs `text` (UTF-8) against `target`.
    package static func input(_ target: Target, text: String) -> [UInt8] {
        input(target, payload: Array(text.utf8))
    }

    /// Bytes as the text a parser reads: invalid UTF-8 becomes U+FFFD, as in a file read as text.
    static func text(_ payload: [UInt8]) -> String {
        String(decoding: payload, as: UTF8.self)
    }
}

/// What one fuzz input did.
package struct FuzzOutcome: Sendable, Hashable {
    /// Whether the input was taken as valid: parsed, or decoded with no `.malformed` event and
    /// no error. Both outcomes are fine; the tests use it to check that mutations reach past
    /// the first validation.
    package var accepted: Bool
    /// The documented properties the input broke, one line each; empty when all held.
    package var violations: [String]

    package init(accepted: Bool = true, violations: [String] = []) {
        self.accepted = accepted
        self.violations = violations
    }

    /// Adds `violation` when `holds` is false.
    mutating func check(_ holds: Bool, _ violation: @autoclosure () -> String) {
        if !holds { violations.append(violation()) }
    }
}
