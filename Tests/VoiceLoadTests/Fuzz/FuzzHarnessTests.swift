import Foundation
import Testing
import WSCore

@testable import VoiceLoad
@testable import VoiceLoadFuzzing

/// The fuzz harness itself: input layouts, the mutator, and target dispatch.
@Suite("Fuzz harness")
struct FuzzHarnessTests {
    @Test("a frame sequence decodes to the selector and frames it was encoded from")
    func frameSequenceRoundTrip() {
        let frames: [WireFrame] = [.text(#"{"type":"ready"}"#), .binary([0, 1, 0xF5, 2]), .text(""), .binary([])]
        let decoded = FuzzFrameSequence.decode(FuzzFrameSequence.encode(selector: 7, frames: frames))
        #expect(decoded.selector == 7)
        #expect(decoded.frames == frames)
        #expect(FuzzFrameSequence.decode([3]).frames == [.text("")])
        #expect(FuzzFrameSequence.decode([]).frames.isEmpty)
        let many = FuzzFrameSequence.encode(selector: 0, frames: Array(repeating: .text("x"), count: 100))
        #expect(FuzzFrameSequence.decode(many).frames.count == FuzzFrameSequence.maxFrames)
    }

    @Test("the same seed mutates the same way, and the prefix is kept")
    func mutatorIsDeterministic() {
        let input: [UInt8] = [1, 4] + Array(#"{"type":"audio","payload":{"data":"AAECAw==","n":12}}"#.utf8)
        var first = FuzzMutator(seed: 99)
        var second = FuzzMutator(seed: 99)
        var changed = 0
        for _ in 0..<500 {
            let mutated = first.mutate(input, keeping: 2, donor: input)
            #expect(mutated == second.mutate(input, keeping: 2, donor: input))
            #expect(Array(mutated.prefix(2)) == [1, 4] && mutated.count <= FuzzMutator.maxInputBytes)
            if mutated != input { changed += 1 }
        }
        #expect(changed > 450)
        var other = FuzzMutator(seed: 100)
        #expect(
            (0..<20).map { _ in other.mutate(input, keeping: 2, donor: input) }
                != (0..<20).map { _ in first.mutate(input, keeping: 2, donor: input) }
        )
    }

    @Test("the first byte chooses the target, modulo the number of targets")
    func dispatch() {
        let count = UInt8(Fuzzing.Target.allCases.count)
        #expect(Fuzzing.Target(selector: Fuzzing.Target.threshold.rawValue + count) == .threshold)
        #expect(Fuzzing.run([]).accepted == false)
        #expect(Fuzzing.run(Fuzzing.input(.threshold, text: "error_rate < 1%")).accepted)
        #expect(!Fuzzing.run(Fuzzing.input(.threshold, text: "error_rate <")).accepted)
    }

    @Test("a broken property is reported: a frame no client reads, a multi-line error")
    func violationsAreReported() {
        #expect(!Fuzzing.rejected("a\nb", naming: "a").violations.isEmpty)
        #expect(!Fuzzing.rejected("x.yaml: bad", naming: "y.yaml:").violations.isEmpty)
        #expect(Fuzzing.rejected("x.yaml:1:2: bad", naming: "x.yaml:").violations.isEmpty)
        #expect(!Fuzzing.violations(of: .serverLatency(name: "server_total_latency_ms", valueUs: .max), dialect: "d").isEmpty)
        #expect(!Fuzzing.violations(of: .malformed(reason: ""), dialect: "d").isEmpty)
        #expect(!Fuzzing.jsonViolations([.text("{")], what: "frame").isEmpty)
    }
}
