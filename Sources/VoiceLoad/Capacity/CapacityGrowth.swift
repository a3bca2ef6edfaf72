import Foundation

/// How `vload capacity` raises the concurrency from one passing step to the next, until the
/// first failure: multiply (`x2`, the default) or add (`+50`).
package enum CapacityGrowth: Sendable, Hashable, CustomStringConvertible {
    case multiply(by: Double)
    case add(clients: Int)

    /// Parses `x2`, `2x`, `*1.5` (multiply, by more than 1) or `+50`, `50` (add, at least 1).
    package init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let fail = InputError("invalid --step '\(text)': use a factor like x2 or x1.5, or a number of clients to add like +50")
        if let factorText = Self.factor(trimmed) {
            guard let factor = Double(factorText), factor.isFinite, factor > 1, factor <= 100 else { throw fail }
            self = .multiply(by: factor)
            return
        }
        let number = trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed
        guard let clients = Int(number), clients >= 1 else { throw fail }
        self = .add(clients: clients)
    }

    private static func factor(_ text: String) -> String? {
        if text.hasPrefix("x") || text.hasPrefix("*") { return String(text.dropFirst()) }
        if text.hasSuffix("x") { return String(text.dropLast()) }
        return nil
    }

    /// The concurrency after a step of `clients` passed: always more than `clients`.
    package func next(after clients: Int) -> Int {
        switch self {
        case .multiply(let factor): return max(clients + 1, Int((Double(clients) * factor).rounded(.down)))
        case .add(let step): return clients + step
        }
    }

    package var description: String {
        switch self {
        case .multiply(let factor):
            return "x" + (factor == factor.rounded() ? String(Int(factor)) : String(factor))
        case .add(let clients): return "+\(clients)"
        }
    }
}
