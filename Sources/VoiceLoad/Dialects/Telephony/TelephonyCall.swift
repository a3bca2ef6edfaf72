/// The identity of one simulated telephony call, as its provider writes it: the ids on the
/// `start` message and the numbers calling and called.
///
/// Deterministic, like `TwilioCallIdentity`: the ids are a hash of the call's number in the run,
/// so every connection of a run has its own and a rerun has the same ones. `parameters` may set
/// `from`, `to` and the account (`account_sid` on Exotel, `account_id` on Plivo).
struct TelephonyCall: Sendable, Hashable {
    var streamID: String
    var callID: String
    var accountID: String
    var from: String
    var to: String

    /// Call `callNumber` (1 for the first of a run) of `provider`: Telnyx a UUID stream id and a
    /// `v3:` call control id; Plivo UUIDs and an `MA…` auth id; Exotel 32-hex-digit SIDs.
    init(provider: TelephonyProvider, callNumber: UInt64, parameters: [String: JSONValue]) {
        let stream = TwilioCallIdentity.sid(prefix: "", seed: callNumber, salt: Salt.stream)
        let call = TwilioCallIdentity.sid(prefix: "", seed: callNumber, salt: Salt.call)
        let account = TwilioCallIdentity.sid(prefix: "", seed: 0, salt: Salt.account)
        switch provider {
        case .telnyx:
            streamID = Self.uuid(stream)
            callID = "v3:" + call
            accountID = Self.uuid(account)
        case .plivo:
            streamID = Self.uuid(stream)
            callID = Self.uuid(call)
            accountID = Self.string(parameters["account_id"]) ?? "MA" + account.prefix(18).uppercased()
        case .exotel:
            streamID = stream
            callID = call
            accountID = Self.string(parameters["account_sid"]) ?? "vload"
        }
        from = Self.string(parameters["from"]) ?? "+15550100001"
        to = Self.string(parameters["to"]) ?? "+15550100002"
    }

    private enum Salt {
        static let account: UInt64 = 0x5445_0000_0000_0000
        static let call: UInt64 = 0x5443_0000_0000_0000
        static let stream: UInt64 = 0x5453_0000_0000_0000
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let given)? = value, !given.isEmpty { return given }
        return nil
    }

    /// 32 hex digits as a UUID: 8-4-4-4-12.
    static func uuid(_ hex: String) -> String {
        let digits = Array(hex)
        var parts: [String] = []
        var start = 0
        for length in [8, 4, 4, 4, 12] {
            parts.append(String(digits[start..<start + length]))
            start += length
        }
        return parts.joined(separator: "-")
    }
}
