/// The dialects vload speaks, by their command-line id.
package enum DialectRegistry {
    /// Every registered dialect id, in the order they are listed to users.
    package static let ids: [String] = [
        "adk-events", "adk-legacy", "adk-seed", "assemblyai-v3", "azure-voice-live", "datagrid", "deepgram-agent", "deepgram-flux",
        "deepgram-stt", "exotel-voicebot",
        "openai-realtime", "pipecat-protobuf", "plivo-audio-streaming", "smallest-atoms", "telnyx-media-streaming", "twilio-media-streams",
        "vonage-websocket",
    ]

    /// The dialects vload calls over WebRTC (docs/webrtc.md); the simulator answers both
    /// (`POST /api/offer`, `POST /v1/realtime/calls`).
    package static let webRTCIDs: [String] = ["openai-realtime-webrtc", "pipecat-webrtc"]

    /// Every dialect `--dialect` takes: `ids`, then `webRTCIDs`.
    package static var clientIDs: [String] { ids + webRTCIDs }

    /// The client side of dialect `id`, with its default options.
    package static func client(_ id: String) throws(UnknownDialectError) -> any ClientDialect {
        switch id {
        case "pipecat-webrtc": return PipecatWebRTCClientDialect()
        case "openai-realtime-webrtc": return OpenAIRealtimeWebRTCClientDialect()
        case "adk-events": return ADKClientDialect(variant: .events)
        case "adk-legacy": return ADKClientDialect(variant: .legacy)
        case "adk-seed": return ADKClientDialect(variant: .seed)
        case "assemblyai-v3": return AssemblyAIClientDialect()
        case "azure-voice-live": return OpenAIRealtimeClientDialect(profile: .azureVoiceLive)
        case "datagrid": return DatagridClientDialect()
        case "deepgram-agent": return DeepgramAgentClientDialect()
        case "deepgram-flux": return DeepgramFluxClientDialect()
        case "deepgram-stt": return DeepgramSTTClientDialect()
        case "openai-realtime": return OpenAIRealtimeClientDialect()
        case "pipecat-protobuf": return PipecatProtobufClientDialect()
        case "smallest-atoms": return SmallestAtomsClientDialect()
        case "twilio-media-streams": return TwilioMediaStreamsClientDialect()
        case "vonage-websocket": return VonageWebSocketClientDialect()
        default:
            if let provider = TelephonyProvider.allCases.first(where: { $0.dialectID == id }) {
                return TelephonyStreamClientDialect(provider: provider)
            }
            throw UnknownDialectError(id: id, knownIDs: clientIDs)
        }
    }

    /// The server side of dialect `id` (for the agent simulator), with its default options.
    package static func server(_ id: String) throws(UnknownDialectError) -> any ServerDialect {
        switch id {
        case "adk-events": return ADKServerDialect(variant: .events)
        case "adk-legacy": return ADKServerDialect(variant: .legacy)
        case "adk-seed": return ADKServerDialect(variant: .seed)
        case "assemblyai-v3": return AssemblyAIServerDialect()
        case "azure-voice-live": return OpenAIRealtimeServerDialect(profile: .azureVoiceLive)
        case "datagrid": return DatagridServerDialect()
        case "deepgram-agent": return DeepgramAgentServerDialect()
        case "deepgram-flux": return DeepgramFluxServerDialect()
        case "deepgram-stt": return DeepgramSTTServerDialect()
        case "openai-realtime": return OpenAIRealtimeServerDialect()
        case "openai-realtime-webrtc": return OpenAIRealtimeWebRTCServerDialect()
        case "pipecat-protobuf": return PipecatProtobufServerDialect()
        case "pipecat-webrtc": return PipecatWebRTCServerDialect()
        case "smallest-atoms": return SmallestAtomsServerDialect()
        case "twilio-media-streams": return TwilioMediaStreamsServerDialect()
        case "vonage-websocket": return VonageWebSocketServerDialect()
        default:
            if let provider = TelephonyProvider.allCases.first(where: { $0.dialectID == id }) {
                return TelephonyStreamServerDialect(provider: provider)
            }
            throw UnknownDialectError(id: id, knownIDs: ids)
        }
    }
}

/// A dialect id that is not registered.
package struct UnknownDialectError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The id that was asked for.
    package let id: String
    /// The registered ids.
    package let knownIDs: [String]

    package init(id: String, knownIDs: [String]) {
        self.id = id
        self.knownIDs = knownIDs
    }

    /// One line: `unknown dialect 'x' (known: datagrid)`.
    package var description: String {
        "unknown dialect '\(id)' (known: \(knownIDs.joined(separator: ", ")))"
    }
}
