/// The SIDs of one simulated Twilio call (docs/dialects.md): `AC`, `CA` and `MZ` followed by
/// 32 lowercase hex digits.
///
/// Deterministic, with no randomness: the call and stream SIDs are a hash of the call's number
/// in the run (so every connection of a run has its own, and a rerun has the same ones), the
/// account SID is `parameters["account_sid"]` when the scenario gives one, else a fixed value.
struct TwilioCallIdentity: Sendable, Hashable {
    var accountSid: String
    var callSid: String
    var streamSid: String

    init(accountSid: String, callSid: String, streamSid: String) {
        self.accountSid = accountSid
        self.callSid = callSid
        self.streamSid = streamSid
    }

    /// The identity of call `callNumber` (1 for the first call of a run).
    init(callNumber: UInt64, parameters: [String: JSONValue]) {
        var accountSid = Self.sid(prefix: "AC", seed: 0, salt: Salt.account)
        if case .string(let given)? = parameters["account_sid"], !given.isEmpty { accountSid = given }
        self.init(
            accountSid: accountSid,
            callSid: Self.sid(prefix: "CA", seed: callNumber, salt: Salt.call),
            streamSid: Self.sid(prefix: "MZ", seed: callNumber, salt: Salt.stream)
        )
    }

    /// `prefix` and 32 hex digits derived from `seed` and `salt`.
    static func sid(prefix: String, seed: UInt64, salt: UInt64) -> String {
        let high = splitMix64(seed &* 2 &+ salt)
        let low = splitMix64(seed &* 2 &+ 1 &+ salt)
        return prefix + hex16(high) + hex16(low)
    }

    private enum Salt {
        static let account: UInt64 = 0x4143_0000_0000_0000
        static let call: UInt64 = 0x4341_0000_0000_0000
        static let stream: UInt64 = 0x4D5A_0000_0000_0000
    }

    /// The SplitMix64 output function: a well-mixed 64-bit value for each input.
    private static func splitMix64(_ value: UInt64) -> UInt64 {
        var mixed = value &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
