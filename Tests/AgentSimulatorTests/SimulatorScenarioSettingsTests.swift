import Testing
import VoiceLoad

@testable import AgentSimulator

@Suite("Simulator settings for scripted scenarios")
struct SimulatorScenarioSettingsTests {
    @Test("a reply length loops the clip or cuts it")
    func fitted() {
        let clip = AudioClip(samples: [1, 2, 3], sampleRateHz: 1_000)
        #expect(ReplyAudio.fitted(clip, durationMs: 7).samples == [1, 2, 3, 1, 2, 3, 1])
        #expect(ReplyAudio.fitted(clip, durationMs: 2).samples == [1, 2])
        #expect(ReplyAudio.fitted(clip, durationMs: 3).sampleRateHz == 1_000)
    }

    @Test("the reply is as long as asked, in chunks of the reply chunk length; the greeting is untouched")
    func replyLength() throws {
        let dialect = DatagridServerDialect()
        let plain = try ReplyAudio(configuration: SimulatorConfiguration(), dialect: dialect)
        var configuration = SimulatorConfiguration()
        configuration.replyDurationMs = 20_000
        let long = try ReplyAudio(configuration: configuration, dialect: dialect)
        #expect(long.chunkCounts[.reply] == 500)
        #expect(long.chunkCounts[.greeting] == plain.chunkCounts[.greeting])
        #expect((plain.chunkCounts[.reply] ?? 0) < 500)
        configuration.replyDurationMs = 100
        #expect(try ReplyAudio(configuration: configuration, dialect: dialect).chunkCounts[.reply] == 3)
    }

    @Test(
        "out-of-range settings are refused with a one-line reason",
        arguments: [
            { (settings: inout SimulatorConfiguration) in settings.replyDurationMs = 99 },
            { settings in settings.replyDurationMs = 600_001 },
            { settings in settings.bargeInReactionMs = -1 },
            { settings in settings.bargeInReactionMs = 10_001 },
            { settings in settings.bargeInMinSpeechMs = -1 },
            { settings in settings.bargeInMinSpeechMs = 10_001 },
            { settings in settings.toolLatencyMs = -5 },
            { settings in settings.toolResultTimeoutMs = 0 },
            { settings in settings.toolCall = "" },
            { settings in settings.toolCall = "two words" },
            { settings in settings.toolArguments = "{city:" },
        ] as [@Sendable (inout SimulatorConfiguration) -> Void]
    )
    func refused(change: @Sendable (inout SimulatorConfiguration) -> Void) {
        var settings = SimulatorConfiguration()
        change(&settings)
        #expect(throws: InputError.self) { try settings.validate() }
    }

    @Test("the defaults and the edges of the ranges are accepted, and the report lists the settings")
    func accepted() throws {
        var settings = SimulatorConfiguration()
        try settings.validate()
        #expect(settings.bargeInReactionMs == 0 && settings.replyDurationMs == nil && settings.userTranscripts)
        #expect(settings.toolCall == nil && settings.toolArguments == "{}" && settings.toolLatencyMs == 200)
        #expect(settings.toolResultTimeoutMs == 5_000)
        settings.replyDurationMs = 600_000
        settings.bargeInReactionMs = 10_000
        settings.toolCall = "get_weather"
        settings.toolArguments = #"{"city":"Oslo"}"#
        try settings.validate()
        #expect(settings.summary["tool_call"] == "get_weather" && settings.summary["reply_ms"] == "600000")
        #expect(settings.summary["tool_arguments"] == #"{"city":"Oslo"}"#)
    }
}
