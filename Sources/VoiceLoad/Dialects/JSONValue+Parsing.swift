extension JSONValue {
    /// The JSON value (an object, array or bare value) in `text`, or nil when it is not JSON.
    package init?(parsing text: String) {
        var text = text
        guard let value = try? text.withUTF8({ try JSONValue.parse($0, validatedUTF8: true) }) else { return nil }
        self = value
    }

    /// The JSON value in `bytes`, in one pass: RFC 8259 JSON (any value at the top, whitespace
    /// around it), nothing more. Integers without a fraction or exponent that fit 64 bits become
    /// `.integer`, other numbers `.number`; `\uXXXX` escapes must pair surrogates. Set
    /// `validatedUTF8` when `bytes` are known to be valid UTF-8 (a `String`'s); otherwise
    /// strings are checked and invalid UTF-8 is rejected.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, validatedUTF8: Bool) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, validatedUTF8: validatedUTF8)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw JSONSyntaxError(offset: parser.index) }
        return value
    }

    /// `parse` over an array of bytes.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) in try parse(buffer, validatedUTF8: false) }
        }
        return try result.get()
    }
}

/// The single-pass reader behind `JSONValue.parse`.
private struct JSONParser {
    /// Deeper nesting is rejected, so hostile input cannot exhaust the stack.
    static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    let validatedUTF8: Bool
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, validatedUTF8: Bool) {
        self.bytes = bytes
        self.validatedUTF8 = validatedUTF8
    }

    private var failure: JSONSyntaxError { JSONSyntaxError(offset: index) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw failure }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure }
        let expected = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != expected[offset] { throw failure }
        index += count
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw failure }
        index += 1  // {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        // Room for a typical event's members at once: growing 1 → 2 → 4 → 8 rehashed every key.
        var members = [String: JSONValue](minimumCapacity: 8)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure }
            index += 1
            skipWhitespace()
            members[key] = try value(depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw failure }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw failure
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw failure }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw failure }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw failure
            }
        }
    }

    /// A string literal, the opening quote at `index`.
    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1  // "
        let start = index
        // The common case: no escapes, so the text is the bytes as they are. Eight bytes at a
        // time while they are plain ASCII (an audio delta's base64 is kilobytes of it).
        index = Self.endOfPlainASCII(in: bytes, from: index)
        var asciiOnly = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if validatedUTF8 || asciiOnly { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else { throw JSONSyntaxError(offset: start) }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure }
            if byte >= 0x80 { asciiOnly = false }
            index += 1
        }
        guard index < bytes.count else { throw failure }
        // Escapes: build the bytes, then check them as UTF-8 once.
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                if validatedUTF8 { return String(decoding: scratch, as: UTF8.self) }
                guard let text = String(validating: scratch, as: UTF8.self) else { throw JSONSyntaxError(offset: start) }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(to: &scratch)
                default: throw failure
                }
            default:
                if byte < 0x20 { throw failure }
                scratch.append(byte)
                index += 1
            }
        }
        throw failure
    }

    /// The index of the first byte at or after `start` that is not plain string text: a quote,
    /// a backslash, a control character or a byte of a multi-byte UTF-8 sequence (or the end).
    /// Reads a word of eight bytes at a time (SWAR: the high bit of each byte of `special`
    /// marks a byte that is one of those), then finishes byte by byte. (Swift's `SIMD16<UInt8>`
    /// did the same thirty times slower: its comparisons were not vectorized.)
    private static func endOfPlainASCII(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // A byte is zero in `quote` (`backslash`) where it is `"` (`\\`); `x - ones` sets the
            // high bit of a byte that was zero (or below 0x20 for the control test), and `& ~x`
            // keeps it only where the byte is ASCII. Bytes of 0x80 and above are `word & highBits`.
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word) | word
            if special & highBits != 0 { break }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        return index
    }

    /// The scalar of a `\uXXXX` escape (the `\u` read), with its low surrogate when it is a
    /// high one, appended as UTF-8. Unpaired surrogates are rejected.
    private mutating func appendUnicodeEscape(to scratch: inout [UInt8]) throws(JSONSyntaxError) {
        var code = try hexQuad()
        if (0xD800...0xDBFF).contains(code) {
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { throw failure }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
            throw failure
        }
        guard let scalar = Unicode.Scalar(code) else { throw failure }
        scratch.append(contentsOf: UTF8.encode(scalar)!)
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerStart = index
        // Up to 19 digits accumulate exactly in a UInt64.
        var magnitude: UInt64 = 0
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            if index - integerStart < 19 { magnitude = magnitude &* 10 &+ UInt64(digit) }
            index += 1
        }
        let integerDigits = index - integerStart
        guard integerDigits > 0 else { throw failure }
        guard !(integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0")) else { throw JSONSyntaxError(offset: integerStart) }
        var isIntegral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isIntegral = false
            index += 1
            let fractionStart = index
            while index < bytes.count, Self.digit(bytes[index]) != nil { index += 1 }
            guard index > fractionStart else { throw failure }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isIntegral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < bytes.count, Self.digit(bytes[index]) != nil { index += 1 }
            guard index > exponentStart else { throw failure }
        }
        if isIntegral, integerDigits <= 19 {
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
            }
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw JSONSyntaxError(offset: start) }
        return .number(value)
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        let digit = byte &- UInt8(ascii: "0")
        return digit < 10 ? digit : nil
    }
}
