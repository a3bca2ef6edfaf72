import Foundation
import Testing

@testable import VoiceLoad
@testable import VoiceLoadFuzzing

/// Seeded fuzzing of everything that reads what a server or client sends: every client and
/// server codec, the REST pre-step's answer, the WebSocket assembler, the flat-JSON and
/// base64 fast paths (against Foundation), RTP, Opus and STUN packets, and SDP answers. Inputs are mutations
/// of valid frames made by the dialects' own encoders, and random bytes.
@Suite("Decoder fuzzing")
struct DecoderFuzzTests {
    @Test("every seed frame decodes without a .malformed event and within the event bounds")
    func seedsAreValid() {
        for target in [
            Fuzzing.Target.clientDecoder, .serverDecoder, .webSocketAssembler, .restAnswer, .json, .base64, .rtpPacket, .opusPacket,
            .stunMessage, .sdpAnswer,
        ] {
            let seeds = FuzzSeeds.inputs(for: target)
            #expect(seeds.count >= 5, "\(target)")
            for seed in seeds {
                let outcome = Fuzzing.run(seed)
                #expect(outcome.violations.isEmpty, "\(target): \(outcome.violations)")
                if [.clientDecoder, .serverDecoder, .json, .base64, .rtpPacket, .opusPacket, .stunMessage, .sdpAnswer].contains(target) {
                    #expect(outcome.accepted, "\(target) seed \(Data(seed).base64EncodedString().prefix(300)) is not accepted")
                }
            }
        }
    }

    @Test(
        "decoders take mutated and random frames",
        arguments: [
            (Fuzzing.Target.clientDecoder, 3_000, 600, UInt64(11)),
            (Fuzzing.Target.serverDecoder, 2_500, 500, UInt64(12)),
            (Fuzzing.Target.webSocketAssembler, 2_000, 1_000, UInt64(13)),
            (Fuzzing.Target.restAnswer, 2_000, 500, UInt64(14)),
            (Fuzzing.Target.json, 3_000, 500, UInt64(15)),
            (Fuzzing.Target.base64, 3_000, 500, UInt64(16)),
            (Fuzzing.Target.rtpPacket, 3_000, 500, UInt64(17)),
            (Fuzzing.Target.opusPacket, 2_000, 500, UInt64(18)),
            (Fuzzing.Target.stunMessage, 3_000, 200, UInt64(19)),
            (Fuzzing.Target.sdpAnswer, 2_000, 500, UInt64(20)),
        ]
    )
    func fuzz(target: Fuzzing.Target, mutations: Int, randomInputs: Int, seed: UInt64) {
        let result = FuzzCampaign(target, mutations: mutations, randomInputs: randomInputs, seed: seed).run()
        #expect(result.failures.isEmpty, "\(target): \(result.failures)")
        #expect(result.runs == mutations + randomInputs)
        // Mutations reach past the first validation, and also break it.
        #expect(
            result.accepted > result.runs / 20 && result.accepted < result.runs,
            "\(target): \(result.accepted) of \(result.runs) accepted"
        )
    }

    @Test("the repository's custom dialects decode mutated frames of their protocol")
    func repositoryDialects() throws {
        let root = repositoryRoot()
        let datagrid = try #require(Fuzzing.clientDialects.firstIndex { $0.id == "datagrid" })
        let seeds = FuzzSeeds.inputs(for: .clientDecoder).filter { $0[1] == UInt8(datagrid) }
        var mutator = FuzzMutator(seed: 21)
        for file in ["datagrid.yaml", "datagrid-rest.yaml"] {
            let dialect = try CustomDialect.load(path: root + "/dialects/" + file, environment: FuzzDialects.environment)
            var accepted = 0
            for _ in 0..<800 {
                let input = mutator.mutate(seeds[mutator.pick(seeds.count)], keeping: 2, donor: seeds[mutator.pick(seeds.count)])
                let outcome = Fuzzing.checkClientDecoding(
                    dialect: dialect,
                    frames: FuzzFrameSequence.decode(Array(input.dropFirst())).frames
                )
                #expect(outcome.violations.isEmpty, "\(file): \(outcome.violations)")
                if outcome.accepted { accepted += 1 }
            }
            #expect(accepted > 80, "\(file): \(accepted) accepted")
        }
    }
}
