import Foundation
import WSCore

/// Where one custom-dialect connection's `${uuid}`, `${digits:N}` and `${now_iso}` come from
/// (docs/custom-dialects.md): a random generator of its own and a wall clock, both injected, so the
/// codec is otherwise pure and a test replays exactly the same values from a seed and a
/// fixed clock.
package struct TemplateEntropy: Sendable {
    private var random: SeededGenerator
    private let now: @Sendable () -> Date

    /// Values drawn from `SeededGenerator(seed:)`, times read from `now`.
    package init(seed: UInt64, now: @escaping @Sendable () -> Date) {
        random = SeededGenerator(seed: seed)
        self.now = now
    }

    /// A generator seeded from the system's randomness and the system clock: what a run uses.
    package static func system() -> TemplateEntropy {
        TemplateEntropy(seed: UInt64.random(in: .min ... .max), now: { Date() })
    }

    /// The text of one generated placeholder; empty for any other.
    package mutating func value(of variable: TemplatePlaceholder.Variable) -> String {
        switch variable {
        case .uuid: return uuid()
        case .digits(let count): return digits(count)
        case .nowISO: return Self.iso8601(now())
        default: return ""
        }
    }

    /// `count` random decimal digits.
    private mutating func digits(_ count: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count { bytes.append(UInt8(ascii: "0") + random.next(upperBound: 10 as UInt8)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A version-4 UUID (RFC 9562 §5.4), lowercase.
    private mutating func uuid() -> String {
        var bytes = withUnsafeBytes(of: random.next().bigEndian, Array.init) + withUnsafeBytes(of: random.next().bigEndian, Array.init)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text += "-" }
            text += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
        return text
    }

    /// `date` in UTC as `yyyy-MM-ddTHH:mm:ss.SSSZ`, rounded to the millisecond.
    package static func iso8601(_ date: Date) -> String {
        let totalMs = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let (days, msOfDay) = floorDivision(totalMs, 86_400_000)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(msOfDay / 3_600_000, 2)):\(padded(msOfDay / 60_000 % 60, 2)):\(padded(msOfDay / 1_000 % 60, 2))"
            + ".\(padded(msOfDay % 1_000, 3))Z"
    }

    /// Quotient rounded down and the non-negative remainder.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01 (H. Hinnant's
    /// `civil_from_days`).
    private static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSinceEpoch + 719_468
        let era = floorDivision(shifted, 146_097).0
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
