import Foundation

/// The server side of the OpenAI Realtime API (docs/dialects.md), as the agent simulator speaks
/// it: `session.created` on open, `session.updated` once the client's `session.update` has
/// been applied, GA event names, and audio deltas tagged with the current response's ids.
package struct OpenAIRealtimeServerDialect: ServerDialect {
    /// OpenAI's GA names, or Azure Voice Live's (`response.audio.delta`, its flat session).
    package let profile: OpenAIRealtimeProfile
    package var id: String { profile.dialectID }
    /// User audio format: PCM16 24 kHz by default.
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default.
    package let outputFormat: AudioFormat
    /// The session starts with the client's `session.update`.
    package let sessionStart = ServerSessionStart.onClientStart
    /// The client runs the tools: each call is answered with a `function_call_output` item.
    package let awaitsToolResults = true

    /// The standard server: PCM16 at `sampleRateHz` both ways.
    package init(sampleRateHz: Int = 24_000, profile: OpenAIRealtimeProfile = .openAI) {
        self.init(
            inputFormat: .pcm16(sampleRateHz),
            outputFormat: .pcm16(profile == .azureVoiceLive ? 24_000 : sampleRateHz),
            profile: profile
        )
    }

    /// A server with explicit formats.
    package init(inputFormat: AudioFormat, outputFormat: AudioFormat, profile: OpenAIRealtimeProfile = .openAI) {
        self.profile = profile
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
    }

    /// The audio as base64: each delta carries the current `response_id` and `item_id`, so
    /// the frame is built per send.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(base64: Data(bytes).base64EncodedString(), byteCount: bytes.count)
    }

    /// A session that asks for the beta interface (`OpenAI-Beta: realtime=v1`) is closed with
    /// 4000 `beta_api_shape_disabled`, as api.openai.com has done since the beta was removed.
    package func refusal(requestHeaders: [(name: String, value: String)]) -> ServerRefusal? {
        typealias Name = OpenAIRealtimeEventName
        let asksForBeta = requestHeaders.contains { header in
            header.name.lowercased() == Name.betaHeader.name.lowercased()
                && header.value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == Name.betaHeader.value }
        }
        return asksForBeta ? ServerRefusal(code: Name.betaRemovedCloseCode, reason: Name.betaRemovedCloseReason) : nil
    }

    /// A codec for one connection; the target (`/v1/realtime?model=…`) changes nothing.
    package func makeCodec(target: String) -> any ServerCodec {
        OpenAIRealtimeServerCodec(inputFormat: inputFormat, outputFormat: outputFormat, profile: profile)
    }
}
