import Foundation
import VoiceLoad
import WSCore

/// Which faults the simulator injects and how often: each fault a probability per session
/// and/or per reply ("turn").
///
/// Written as a list, `KIND[:ARG]=P[/turn]` comma-separated (`refuse:503=0.05,close:4000=0.02/turn`;
/// P in [0, 1]; `/turn` a per-reply probability, else per session), or as a JSON object (what a
/// scenario's `simulator: faults:` block becomes): `{"refuse:401": 0.02, "close": {"turn": 0.05},
/// "stall": {"session": 0.01, "turn": 0.01}}`, a plain number meaning per session.
///
/// The draws are quasi-random, so counts stay close to p·N even for 100 sessions. Session
/// number n (1-based, in the order of upgrade requests) draws u = frac(offset + n·φ), with
/// φ = 0.6180339887498949 and the offset derived from the simulator's seed. The session-scope
/// faults are laid out as consecutive intervals of [0, 1), each as wide as its probability, in
/// a fixed order (kinds as in `InjectedFault.kindNames`, then by argument); the session gets the
/// fault whose interval holds u, if any, so the probabilities may add up to at most 1. Turn scope
/// is the same over the turn-scope faults, with reply number m (counted over every reply of the
/// simulator) and an offset of its own.
///
/// A session-scope fault that acts at a reply strikes at the first reply the agent starts in
/// that session (a session that ends before it never gets it), and that reply draws no turn
/// fault; `refuse` and `slow_ready` act on the upgrade and on `ready` instead.
package struct FaultPlan: Sendable, Hashable, CustomStringConvertible {
    package enum Scope: String, Sendable, Hashable {
        case session
        case turn
    }

    /// One fault and its probability in one scope.
    package struct Entry: Sendable, Hashable {
        package var fault: InjectedFault
        package var probability: Double

        package init(_ fault: InjectedFault, probability: Double) {
            self.fault = fault
            self.probability = probability
        }
    }

    /// The per-session faults, in layout order.
    package private(set) var sessionFaults: [Entry] = []
    /// The per-reply faults, in layout order.
    package private(set) var turnFaults: [Entry] = []

    /// No faults.
    package init() {}

    /// Parses the list or JSON form (see the type's documentation).
    package init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw InputError("no faults given (expected KIND[:ARG]=P[/turn], …)") }
        let entries = trimmed.hasPrefix("{") ? try Self.objectEntries(trimmed) : try Self.listEntries(trimmed)
        guard !entries.isEmpty else { throw InputError("no faults given (expected KIND[:ARG]=P[/turn], …)") }
        try self.init(checking: entries)
    }

    /// A plan of these entries, laid out in the fixed order; rejects a fault given twice in a
    /// scope, a per-turn `refuse` or `slow_ready`, a probability outside [0, 1], and a scope
    /// whose probabilities add up to more than 1.
    private init(checking entries: [(spec: String, scope: Scope, entry: Entry)]) throws(InputError) {
        var seen: Set<String> = []
        for (spec, scope, entry) in entries {
            let probability = entry.probability
            guard probability.isFinite, (0...1).contains(probability) else {
                throw InputError("fault '\(spec)': probability \(Self.number(probability)) is not in [0, 1]")
            }
            if scope == .turn, !entry.fault.actsOnReply {
                throw InputError(
                    "fault '\(spec)': \(entry.fault.kindName) acts when the session starts, so it is per session only (drop '/turn')"
                )
            }
            guard seen.insert("\(entry.fault)/\(scope)").inserted else {
                throw InputError("fault '\(spec)': \(entry.fault) is given twice per \(scope.rawValue)")
            }
            if scope == .session { sessionFaults.append(entry) } else { turnFaults.append(entry) }
        }
        sessionFaults.sort { $0.fault.layoutRank.lexicographicallyPrecedes($1.fault.layoutRank) }
        turnFaults.sort { $0.fault.layoutRank.lexicographicallyPrecedes($1.fault.layoutRank) }
        for (scope, list) in [(Scope.session, sessionFaults), (.turn, turnFaults)] {
            let total = list.map(\.probability).reduce(0, +)
            guard total <= 1 + 1e-9 else {
                throw InputError(
                    "the per-\(scope.rawValue) fault probabilities add up to \(Self.number(total)), more than 1 "
                        + "(a \(scope == .session ? "session" : "reply") gets at most one fault)"
                )
            }
        }
    }

    /// `close:4000=0.02/turn, refuse:503=0.05` → entries.
    private static func listEntries(_ text: String) throws(InputError) -> [(spec: String, scope: Scope, entry: Entry)] {
        var entries: [(spec: String, scope: Scope, entry: Entry)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let spec = item.trimmingCharacters(in: .whitespaces)
            let halves = spec.split(separator: "=", omittingEmptySubsequences: false)
            guard halves.count == 2, !halves[0].isEmpty else {
                throw InputError("fault '\(spec)': expected KIND[:ARG]=P or KIND[:ARG]=P/turn")
            }
            let fault = try InjectedFault(parsing: String(halves[0]), spec: spec)
            var value = halves[1].trimmingCharacters(in: .whitespaces)
            var scope = Scope.session
            if let slash = value.firstIndex(of: "/") {
                let suffix = value[value.index(after: slash)...]
                guard let named = Scope(rawValue: String(suffix)) else {
                    throw InputError("fault '\(spec)': '/\(suffix)' is not a scope (write P for per session, P/turn for per reply)")
                }
                scope = named
                value = String(value[..<slash])
            }
            guard let probability = Double(value) else {
                throw InputError("fault '\(spec)': probability '\(value)' is not a number")
            }
            entries.append((spec, scope, Entry(fault, probability: probability)))
        }
        return entries
    }

    /// `{"close": {"turn": 0.05}, "refuse:401": 0.02}` → entries, sorted by key (the order is
    /// the layout's anyway).
    private static func objectEntries(_ text: String) throws(InputError) -> [(spec: String, scope: Scope, entry: Entry)] {
        guard case .object(let members)? = JSONValue(parsing: text) else {
            throw InputError("faults '\(text)' is not a JSON object of KIND[:ARG]: probability")
        }
        var entries: [(spec: String, scope: Scope, entry: Entry)] = []
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            let fault = try InjectedFault(parsing: key, spec: key)
            var probabilities: [(Scope, JSONValue)] = []
            switch value {
            case .integer, .number: probabilities = [(.session, value)]
            case .object(let scopes):
                guard !scopes.isEmpty else { throw InputError("fault '\(key)': give a probability, or {session: P, turn: P}") }
                for (name, probability) in scopes.sorted(by: { $0.key < $1.key }) {
                    guard let scope = Scope(rawValue: name) else {
                        throw InputError("fault '\(key)': unknown scope '\(name)' (session or turn)")
                    }
                    probabilities.append((scope, probability))
                }
            default:
                throw InputError("fault '\(key)': expected a probability or {session: P, turn: P}, got \(JSONText.text(value))")
            }
            for (scope, probability) in probabilities {
                let spec = scope == .turn ? "\(key) (turn)" : key
                guard let number = probability.doubleValue else {
                    throw InputError("fault '\(spec)': probability \(JSONText.text(probability)) is not a number")
                }
                entries.append((spec, scope, Entry(fault, probability: number)))
            }
        }
        return entries
    }

    package var isEmpty: Bool { sessionFaults.isEmpty && turnFaults.isEmpty }

    /// Every fault of the plan, in either scope, once each.
    package var faults: [InjectedFault] {
        var seen: Set<InjectedFault> = []
        return (sessionFaults + turnFaults).map(\.fault).filter { seen.insert($0).inserted }
    }

    /// The fault session number `sessionNumber` (1-based, in the order of upgrade requests)
    /// gets, if any.
    package func sessionFault(sessionNumber: UInt64, seed: UInt64) -> InjectedFault? {
        guard !sessionFaults.isEmpty else { return nil }
        return Self.pick(Self.draw(sessionNumber, offset: Self.offset(seed: seed, scope: .session)), in: sessionFaults)
    }

    /// The fault reply number `replyNumber` (1-based, over every reply of the simulator) gets, if any.
    package func turnFault(replyNumber: UInt64, seed: UInt64) -> InjectedFault? {
        guard !turnFaults.isEmpty else { return nil }
        return Self.pick(Self.draw(replyNumber, offset: Self.offset(seed: seed, scope: .turn)), in: turnFaults)
    }

    /// The fractional part of the golden ratio: n·φ mod 1 spreads evenly over [0, 1) for any run of n.
    package static let goldenRatioFraction = 0.6180339887498949

    /// u = frac(offset + number·φ), in [0, 1).
    package static func draw(_ number: UInt64, offset: Double) -> Double {
        let step = Double(number) * goldenRatioFraction
        let u = (step - step.rounded(.down)) + offset
        return u >= 1 ? u - 1 : u
    }

    /// The offset of a scope's draws, in [0, 1), from the simulator's seed.
    package static func offset(seed: UInt64, scope: Scope) -> Double {
        var generator = SeededGenerator(seed: seed ^ (scope == .session ? 0x5E55_1011_FA17_0001 : 0x7A4E_1011_FA17_0002))
        return Double(generator.next() >> 11) * 0x1p-53
    }

    /// The fault whose interval of the layout holds `u`, if any.
    static func pick(_ u: Double, in entries: [Entry]) -> InjectedFault? {
        var start = 0.0
        for entry in entries {
            let end = start + entry.probability
            if u >= start, u < end { return entry.fault }
            start = end
        }
        return nil
    }

    /// One line, in layout order: `refuse:503=0.05, close:4000=0.02/turn`; `none` when empty.
    package var description: String {
        let items =
            sessionFaults.map { "\($0.fault)=\(Self.number($0.probability))" }
            + turnFaults.map { "\($0.fault)=\(Self.number($0.probability))/turn" }
        return items.isEmpty ? "none" : items.joined(separator: ", ")
    }

    /// `0.05`, `1`, `1.2` (not `1.2000000000000002`).
    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.6g", value)
    }
}
