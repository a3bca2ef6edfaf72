import Foundation

/// Durations as people write them: `500ms`, `30s`, `2m`, `1h`, or a plain number of seconds.
package enum DurationText {
    /// The duration in milliseconds, or a one-line error naming `option`.
    package static func milliseconds(_ text: String, option: String) throws(InputError) -> Int {
        let units: [(suffix: String, ms: Double)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count)
            if let value = Double(number), value >= 0, value.isFinite, value * unit.ms < Double(Int32.max) * 1_000 {
                return Int((value * unit.ms).rounded())
            }
        }
        if let value = Double(trimmed), value >= 0, value.isFinite, value < Double(Int32.max) {
            return Int((value * 1_000).rounded())
        }
        throw InputError("invalid \(option) '\(text)': use a duration like 500ms, 30s, 2m or 1h")
    }

    /// `FROM..TO` (`100ms..5s`, `20s..30s`) as two durations in milliseconds, or a one-line
    /// error naming `option` and the `example`.
    package static func millisecondRange(_ text: String, option: String, example: String) throws(InputError) -> (from: Int, to: Int) {
        let parts = text.trimmingCharacters(in: .whitespaces).components(separatedBy: "..")
        guard parts.count == 2 else { throw InputError("invalid \(option) '\(text)': use FROM..TO like \(example)") }
        return (try milliseconds(parts[0], option: option), try milliseconds(parts[1], option: option))
    }
}
