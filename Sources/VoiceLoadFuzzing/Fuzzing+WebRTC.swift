import WebRTC

extension Fuzzing {
    /// The STUN target: the bytes as one datagram (`STUNMessage(parsing:integrityKey: nil)`; a
    /// FINGERPRINT present must match). Checks: a message read, written again (with a FINGERPRINT
    /// when it had one), reads back as the same type, transaction and attributes; an error is one
    /// line.
    static func stunMessageParsing(_ payload: [UInt8]) -> FuzzOutcome {
        do {
            let message = try STUNMessage(parsing: payload, integrityKey: nil)
            var outcome = FuzzOutcome()
            let again = try? STUNMessage(parsing: message.serialized(integrityKey: nil, fingerprint: message.hadFingerprint), integrityKey: nil)
            outcome.check(
                again?.type == message.type && again?.transactionID == message.transactionID && again?.attributes == message.attributes,
                "a message that does not read back as written")
            return outcome
        } catch {
            var outcome = FuzzOutcome(accepted: false)
            outcome.check(!error.description.contains(where: \.isNewline), "error of more than one line: \(error)")
            return outcome
        }
    }

    /// The SDP answer target: the bytes as an answer's text (`SDPAnswer(parsing:)`). Checks: an
    /// answer read has ICE credentials, a fingerprint and at least one UDP candidate of component
    /// 1; an error is one line.
    static func sdpAnswerParsing(_ text: String) -> FuzzOutcome {
        do {
            let answer = try SDPAnswer(parsing: text)
            var outcome = FuzzOutcome()
            outcome.check(!answer.iceUfrag.isEmpty && !answer.icePassword.isEmpty, "an answer with empty ICE credentials")
            outcome.check(!answer.fingerprint.digest.isEmpty, "an answer with an empty fingerprint")
            outcome.check(
                !answer.candidates.isEmpty && answer.candidates.allSatisfy { $0.component == 1 && $0.transport == "udp" },
                "an answer whose candidates are \(answer.candidates.map(\.attributeValue))")
            return outcome
        } catch {
            var outcome = FuzzOutcome(accepted: false)
            outcome.check(!error.description.contains(where: \.isNewline), "error of more than one line: \(error)")
            return outcome
        }
    }
}
