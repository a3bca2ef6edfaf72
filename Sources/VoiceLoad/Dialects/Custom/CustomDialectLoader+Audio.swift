import Yams

extension CustomDialectLoader {
    package static let inputKeys = ["encoding", "sample_rate", "frame_ms", "transport", "json", "pad_silence"]
    package static let encodings = ["pcm16le", "mulaw", "alaw"]
    package static let outputKeys = ["encoding", "sample_rate", "extract"]
    package static let extractKeys = ["when", "data", "encoding", "turn_key"]
    /// The highest sample rate a dialect file may name: frame sizes and resampling multiply it.
    package static let maxSampleRateHz = 384_000

    /// `audio.input`: format, frame length and silence padding.
    package func inputFormat(_ node: Node) throws(CustomDialectError) -> (format: AudioFormat, frameMs: Int, padsSilence: Bool) {
        let fields = try reader.fields(node, allowed: Self.inputKeys, what: "'audio.input'")
        let format = try self.format(fields, what: "audio.input")
        let frameMs =
            try fields["frame_ms"].map { node throws(CustomDialectError) in try reader.positiveInt(node, field: "frame_ms") } ?? 40
        let pads = try fields["pad_silence"].map { node throws(CustomDialectError) in try reader.bool(node, field: "pad_silence") } ?? true
        return (format, frameMs, pads)
    }

    /// The audio message of `audio.input`: nil for `transport: binary`.
    package func audioTemplate(_ node: Node) throws(CustomDialectError) -> MessageTemplate? {
        let fields = try reader.fields(node, allowed: Self.inputKeys, what: "'audio.input'")
        guard let transportNode = fields["transport"] else {
            throw reader.error(at: node, "'audio.input' needs 'transport' (json or binary)")
        }
        let transport = try reader.choice(transportNode, field: "transport", choices: ["json", "binary"])
        guard transport == "json" else {
            if let json = fields["json"] { throw reader.error(at: json, "'json' is only for 'transport: json'") }
            return nil
        }
        guard let json = fields["json"] else { throw reader.error(at: node, "'transport: json' needs a 'json' template") }
        let template = try MessageTemplate(json, reader: reader, scope: scope("audio.input.json", audio: true))
        guard template.usesAudio else { throw reader.error(at: json, "audio.input.json must contain ${audio.b64} or ${audio.b64url}") }
        return template
    }

    /// `audio.output`: the agent audio format.
    package func outputFormat(_ node: Node) throws(CustomDialectError) -> AudioFormat {
        let fields = try reader.fields(node, allowed: Self.outputKeys, what: "'audio.output'")
        return try format(fields, what: "audio.output")
    }

    /// `audio.output.extract`: `[{when: matcher, data: path, encoding: base64|base64url, turn_key: path}]`.
    package func extractRules(_ node: Node) throws(CustomDialectError) -> [AudioExtractRule] {
        let output = try reader.fields(node, allowed: Self.outputKeys, what: "'audio.output'")
        guard let extract = output["extract"] else { return [] }
        var rules: [AudioExtractRule] = []
        for item in try reader.sequence(extract, field: "extract") {
            let fields = try reader.fields(item, allowed: Self.extractKeys, what: "an extract rule")
            guard let when = fields["when"] else { throw reader.error(at: item, "an extract rule needs 'when'") }
            let matcher = try FrameMatcher(when, reader: reader, what: "'when' of an extract rule")
            let data = try fields["data"].map { node throws(CustomDialectError) in try path(node, field: "data") }
            if data == nil, !matcher.requiresBinaryFrame {
                throw reader.error(
                    at: item,
                    "an extract rule without 'data' takes raw binary frames: its 'when' must require \"@frame\": binary"
                )
            }
            var isBase64URL = false
            if let encoding = fields["encoding"] {
                guard data != nil else { throw reader.error(at: encoding, "'encoding' needs 'data' (raw binary frames are not base64)") }
                isBase64URL = try reader.choice(encoding, field: "encoding", choices: ["base64", "base64url"]) == "base64url"
            }
            let turnKey = try fields["turn_key"].map { node throws(CustomDialectError) in
                try FieldSource(node, kind: .string, reader: reader, field: "turn_key")
            }
            rules.append(AudioExtractRule(matcher: matcher, data: data, isBase64URL: isBase64URL, turnKey: turnKey))
        }
        return rules
    }

    private func format(_ fields: NodeFields, what: String) throws(CustomDialectError) -> AudioFormat {
        guard let encodingNode = fields["encoding"] else {
            throw reader.error(at: fields.node, "'\(what)' needs 'encoding' (pcm16le, mulaw or alaw)")
        }
        guard let rateNode = fields["sample_rate"] else { throw reader.error(at: fields.node, "'\(what)' needs 'sample_rate'") }
        let encoding = try reader.choice(encodingNode, field: "\(what).encoding", choices: Self.encodings)
        let rate = try reader.positiveInt(rateNode, field: "\(what).sample_rate")
        guard rate <= Self.maxSampleRateHz else {
            throw reader.error(at: rateNode, "'\(what).sample_rate' must be at most \(Self.maxSampleRateHz) Hz")
        }
        let encodings: [String: SampleEncoding] = ["pcm16le": .pcm16, "mulaw": .mulaw, "alaw": .alaw]
        return AudioFormat(encoding: encodings[encoding] ?? .pcm16, sampleRateHz: rate)
    }
}
