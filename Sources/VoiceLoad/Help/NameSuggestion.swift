import Foundation

/// The valid name a mistyped one most likely meant, for an error's "did you mean" hint.
package enum NameSuggestion {
    /// The candidate nearest to `name`, or nil when none is near enough. In order:
    /// 1. the same name once case and separators are ignored (`Error-Rate`, `errorRate`);
    /// 2. the fewest edits (Damerau-Levenshtein: insert, delete, substitute, swap two
    ///    neighbours), at most a third of the name's length (at least 1, at most 4): `eror_rate`;
    /// 3. the candidate holding every word of the name (words split at `_`, each the same or,
    ///    from four letters on, one edit off), at least half of its own words, with the fewest
    ///    other words: `first_audio_ms` → `first_audio_from_end_ms`, `int_ack` → `int_ack_ms`
    ///    (but `latency` is not `server_total_latency_ms`). A name of `ms` alone, or under three
    ///    letters, gets none.
    ///
    /// Ties go to the earlier candidate, so list the likeliest first.
    package static func nearest(to name: String, in candidates: [String]) -> String? {
        let typed = normalized(name)
        guard !typed.isEmpty else { return nil }
        if let same = candidates.first(where: { normalized($0) == typed }) { return same }
        let cutoff = min(4, max(1, typed.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, normalized(candidate))
            if distance <= cutoff, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        if let best { return best.candidate }
        return byWords(typed, in: candidates)
    }

    /// The Damerau-Levenshtein distance (optimal string alignment) between `a` and `b`:
    /// insertions, deletions, substitutions and swaps of two neighbours, each one edit.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// Lower case, words joined by `_`: `firstAudio-MS` → `first_audio_ms`.
    static func normalized(_ name: String) -> String {
        var result = ""
        var previous: Character?
        for character in name.trimmingCharacters(in: .whitespaces) {
            if character == "-" || character == " " || character == "." {
                result.append("_")
            } else if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                result.append("_")
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(contentsOf: character.lowercased())
            }
            previous = character
        }
        return result
    }

    private static func byWords(_ typed: String, in candidates: [String]) -> String? {
        let words = typed.split(separator: "_").map(String.init)
        guard words.contains(where: { $0 != "ms" }), words.joined().count >= 3 else { return nil }
        var best: (candidate: String, extra: Int)?
        for candidate in candidates {
            var left = normalized(candidate).split(separator: "_").map(String.init)
            let holdsAll = words.allSatisfy { word in
                let match =
                    left.firstIndex(of: word)
                    ?? left.firstIndex { word.count >= 4 && $0.count >= 4 && editDistance(word, $0) <= 1 }
                guard let match else { return false }
                left.remove(at: match)
                return true
            }
            guard holdsAll, words.count >= left.count else { continue }
            if left.count < best?.extra ?? .max { best = (candidate, left.count) }
        }
        return best?.candidate
    }
}
