/// The comparison of a threshold: `<`, `<=`, `>`, `>=`, `==`, `!=`.
package enum ThresholdComparison: String, Sendable, Hashable, CaseIterable {
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case greater = ">"

    /// Whether `measured OP bound` holds.
    package func holds(_ measured: Double, _ bound: Double) -> Bool {
        switch self {
        case .less: return measured < bound
        case .lessOrEqual: return measured <= bound
        case .greater: return measured > bound
        case .greaterOrEqual: return measured >= bound
        case .equal: return measured == bound
        case .notEqual: return measured != bound
        }
    }
}
