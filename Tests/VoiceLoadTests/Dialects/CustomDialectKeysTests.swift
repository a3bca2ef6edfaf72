import Testing

@testable import VoiceLoad

/// Writing a dialect file: an unknown key is answered with every key valid at its place and
/// a pointer to the full reference, which covers every place the loader checks.
@Suite("Custom dialect: key listing")
struct CustomDialectKeysTests {
    typealias Support = CustomDialectTestSupport

    @Test func unknownKeysListTheirPlacesKeys() throws {
        let cases: [(body: String, keys: [String])] = [
            ("send:\n  interupt: {\"type\": \"x\"}\n", CustomDialectLoader.sendKeys),
            ("timing:\n  quiet: 5\n", CustomDialectLoader.timingKeys),
            ("connect:\n  header: {}\n", CustomDialectLoader.connectKeys),
            ("send:\n  keepalive: {every: 5, json: {}}\n", CustomDialectLoader.keepAliveKeys),
        ]
        for (body, keys) in cases {
            let error = try #require(Support.loadError(Support.head + body))
            #expect(error.message.contains("(known: \(keys.joined(separator: ", "))"), "\(error)")
            #expect(error.message.hasSuffix("vload validate --keys lists every key)"), "\(error)")
        }
        let event = try #require(Support.loadError(Support.head + "events:\n  transcript: {match: {\"$.a\": 1}, txt: \"$.t\"}\n"))
        #expect(event.message.contains("(known: match, role, text, final, cumulative"), "\(event)")
    }

    @Test func theReferenceCoversEveryPlace() {
        let text = CustomDialectKeyReference.text
        for place in [
            "(top level)", "connect.pre_request", "audio.input", "audio.output.extract[]", "send.keepalive", "send.replies[]",
            "events.transcript", "events.tool.call", "captures[]", "timing", "a matcher", "a template",
        ] {
            #expect(text.contains("\n  \(place) "), "\(place)")
        }
        for key in CustomDialectLoader.topLevelKeys + CustomDialectLoader.inputKeys + CustomDialectLoader.sendKeys {
            #expect(text.contains(key))
        }
        #expect(text.contains("${msg.PATH}") || text.contains("msg.PATH"))
    }
}
