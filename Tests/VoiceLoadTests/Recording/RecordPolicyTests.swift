import Testing

@testable import VoiceLoad

@Suite("Recordings: --record")
struct RecordPolicyTests {
    @Test("worst:N, failed, all, none and worst:N,failed parse; the default is worst:5,failed")
    func parses() throws {
        #expect(try RecordPolicy(parsing: "worst:3") == RecordPolicy(worstCount: 3))
        #expect(try RecordPolicy(parsing: "failed") == RecordPolicy(failed: true))
        #expect(try RecordPolicy(parsing: "all") == RecordPolicy(all: true))
        #expect(try RecordPolicy(parsing: "none") == .none)
        #expect(try RecordPolicy(parsing: "worst:5,failed") == .standard)
        #expect(try RecordPolicy(parsing: "failed, worst:5") == .standard)
        #expect(RecordPolicy.standard.description == "worst:5,failed")
        #expect(!RecordPolicy.none.recordsAny)
        for text in ["all", "none", "failed", "worst:7", "worst:2,failed"] {
            #expect(try RecordPolicy(parsing: text).description == text)
        }
    }

    @Test("a bad value is one line naming the flag and the value")
    func rejects() {
        for text in [
            "", "worst", "worst:0", "worst:1001", "worst:x", "best:3", "all,failed", "failed,failed", "worst:2,worst:3", "none,failed",
        ] {
            #expect(throws: InputError("--record must be worst:N (N 1–1000), failed, all or none, or worst:N,failed (got '\(text)')")) {
                try RecordPolicy(parsing: text)
            }
        }
    }
}
