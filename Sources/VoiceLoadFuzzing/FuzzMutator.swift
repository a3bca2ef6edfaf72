import VoiceLoad
import WSCore

/// Deterministic mutations of fuzz inputs, for the seeded property tests and for the fuzz
/// executable without libFuzzer: bit flips, random bytes, truncation, splices, duplicated and
/// deleted ranges and lines, numbers replaced by extremes, strings with Unicode, NUL, quotes
/// and template or YAML syntax, values of another JSON type, and deep nesting. The same seed
/// gives the same inputs on every platform.
package struct FuzzMutator {
    private var random: SeededGenerator
    /// Inputs are cut to this many bytes.
    package static let maxInputBytes = 65_536

    package init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// `input` changed by one to four mutations; its first `prefixCount` bytes (the target
    /// byte, and the codec selector of a frame sequence) are kept. `donor` is another input
    /// to splice from.
    package mutating func mutate(_ input: [UInt8], keeping prefixCount: Int, donor: [UInt8]) -> [UInt8] {
        let kept = min(prefixCount, input.count)
        var body = Array(input[kept...])
        let donorBody = Array(donor.dropFirst(min(prefixCount, donor.count)))
        for _ in 0...random.next(upperBound: 3 as UInt8) {
            mutate(&body, donor: donorBody)
        }
        if body.count > Self.maxInputBytes - kept { body.removeLast(body.count - (Self.maxInputBytes - kept)) }
        return Array(input[..<kept]) + body
    }

    /// Up to `maxCount` random bytes after `prefix`.
    package mutating func randomInput(prefix: [UInt8], maxCount: Int) -> [UInt8] {
        let count = pick(maxCount + 1)
        return prefix + (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// A number below `bound` (0 when `bound` is 0).
    package mutating func pick(_ bound: Int) -> Int {
        bound > 0 ? Int(random.next(upperBound: UInt64(bound))) : 0
    }

    private mutating func mutate(_ body: inout [UInt8], donor: [UInt8]) {
        switch pick(13) {
        case 0:
            guard !body.isEmpty else { return }
            body[pick(body.count)] ^= 1 << UInt8(pick(8))
        case 1:
            guard !body.isEmpty else { return }
            body[pick(body.count)] = UInt8(truncatingIfNeeded: random.next())
        case 2:
            let bytes = (0..<(1 + pick(16))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            body.insert(contentsOf: bytes, at: pick(body.count + 1))
        case 3:
            let range = randomRange(in: body.count)
            body.removeSubrange(range)
        case 4:
            let range = randomRange(in: body.count)
            body.insert(contentsOf: body[range], at: pick(body.count + 1))
        case 5:
            body.removeLast(pick(body.count + 1))
        case 6:
            body = Array(body.prefix(pick(body.count + 1))) + Array(donor.suffix(pick(donor.count + 1)))
        case 7:
            replaceNumber(in: &body)
        case 8:
            body.insert(contentsOf: Self.specials[pick(Self.specials.count)], at: pick(body.count + 1))
        case 9:
            replaceQuotedString(in: &body)
        case 10:
            nest(&body)
        case 11:
            repeatOrDropLine(in: &body)
        default:
            // A special sequence right after a quote: inside a key or a string value.
            let special = Self.specials[pick(Self.specials.count)]
            let quotes = body.indices.filter { body[$0] == UInt8(ascii: "\"") }
            if !quotes.isEmpty {
                body.insert(contentsOf: special, at: quotes[pick(quotes.count)] + 1)
            } else {
                body += special
            }
        }
    }

    /// A random range of up to a quarter of `count` bytes (at least one when there are any).
    private mutating func randomRange(in count: Int) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let start = pick(count)
        let length = 1 + pick(max(1, min(count - start, count / 4 + 1)))
        return start..<min(count, start + length)
    }

    /// A run of digits (with sign, point and exponent) replaced by an extreme number.
    private mutating func replaceNumber(in body: inout [UInt8]) {
        let extreme = Array(Self.extremeNumbers[pick(Self.extremeNumbers.count)].utf8)
        let digits = body.indices.filter { Self.isDigit(body[$0]) }
        guard let some = digits.isEmpty ? nil : digits[pick(digits.count)] else {
            body.insert(contentsOf: extreme, at: pick(body.count + 1))
            return
        }
        var start = some
        var end = some + 1
        while start > 0, Self.isNumberByte(body[start - 1]) { start -= 1 }
        while end < body.count, Self.isNumberByte(body[end]) { end += 1 }
        body.replaceSubrange(start..<end, with: extreme)
    }

    /// A quoted string (`"…"`) replaced by a value of another JSON type.
    private mutating func replaceQuotedString(in body: inout [UInt8]) {
        let quotes = body.indices.filter { body[$0] == UInt8(ascii: "\"") }
        guard quotes.count >= 2 else { return }
        let first = pick(quotes.count - 1)
        let replacement = Self.jsonValues[pick(Self.jsonValues.count)]
        body.replaceSubrange(quotes[first]...quotes[first + 1], with: Array(replacement.utf8))
    }

    /// 8 to about 2000 nesting levels (JSON arrays or objects, YAML flow mappings or block
    /// sequences) around a random range: as often a few dozen as past the parsers' limits
    /// (512 for JSON, 1000 for YAML).
    private mutating func nest(_ body: inout [UInt8]) {
        let depth = (8 << pick(9)) + pick(64)
        let (open, close) = Self.nestings[pick(Self.nestings.count)]
        let range = randomRange(in: body.count)
        var nested = [UInt8]()
        nested.reserveCapacity(depth * (open.count + close.count) + range.count)
        for _ in 0..<depth { nested += Array(open.utf8) }
        nested += body[range]
        for _ in 0..<depth { nested += Array(close.utf8) }
        body.replaceSubrange(range, with: nested)
    }

    /// One line repeated (a duplicate key or step) or dropped.
    private mutating func repeatOrDropLine(in body: inout [UInt8]) {
        let newlines = body.indices.filter { body[$0] == UInt8(ascii: "\n") }
        guard !newlines.isEmpty else { return }
        let index = pick(newlines.count)
        let start = index == 0 ? 0 : newlines[index - 1] + 1
        let line = body[start...newlines[index]]
        if pick(2) == 0 {
            body.insert(contentsOf: Array(line), at: start)
        } else {
            body.removeSubrange(start...newlines[index])
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// Numbers at and past the edges of every integer and floating-point type, and the
    /// spellings of non-numbers YAML or JSON might take for numbers.
    static let extremeNumbers = [
        "0", "-0", "-1", "1", "255", "256", "65535", "65536", "2147483647", "2147483648", "-2147483649",
        "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "99999999999999999999999999999", "1e15", "1e16", "1e300", "1e308", "-1e308",
        "1.7976931348623157e308", "1e309", "4.9e-324", "1e-400", "0.1", "-0.0", ".5", "5.", "0x10", "0o17", "1_000",
        "NaN", ".nan", ".inf", "-.inf", "Infinity",
    ]

    /// Text that breaks naive string handling, escaping, templates or YAML, and bytes that are
    /// not UTF-8.
    static let specials: [[UInt8]] =
        [
            "\u{0}", "\\u0000", "\"", "\\", "\\\"", "'", "\n", "\r\n", "\t", "\u{2028}", "\u{FEFF}", "é", "e\u{301}", "𝄞",
            "🏳️‍🌈", "\u{202E}", "${", "$${", "}", "${var.x}", "${env.HOME}", "${digits:1000}", "${msg.a[0]}", ":", ": ", "- ",
            "? ", " #", "&a ", "*a", "!!binary ", "!tag ", "---\n", "...\n", "|\n", ">-\n", "{", "[", "%YAML 1.2\n",
            "<<: ", "~", "@raw", "$[*]", "$['a']",
        ].map { Array($0.utf8) } + [[0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xC0, 0xAF], [0xF5]]

    /// Values of every JSON type, to stand where a string was.
    static let jsonValues = ["0", "-1", "1e308", "null", "true", "[]", "{}", "\"\"", "[null]", "{\"a\":{}}", "\"\\ud800\""]

    /// Opening and closing text of one nesting level.
    static let nestings = [("[", "]"), ("{\"a\":", "}"), ("{a: ", "}"), ("- ", ""), ("[{\"k\":[", "]}]")]
}
