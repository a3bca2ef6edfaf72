import Foundation

/// The recordings of a merged run (`vload merge`, docs/recordings.md): of the calls the parts
/// recorded, those the parts' policy keeps for the whole run. A call among the worst N of the
/// whole run is among the worst N of its own part, so the parts' recordings hold the run's worst
/// N (unless a part's cap left one out); every call a part kept as failed, past a threshold, or
/// with `all`, stays. The kept files are copied into the merged report's `recordings/`, the
/// total capped as in a run: first the calls kept for themselves, then the worst, slowest first.
package enum RecordingMerge {
    /// A kept recording: its entry in the merged summary, and where its files lie in its part.
    package struct Pick: Sendable, Hashable {
        /// The part's index in the merge's list.
        package var part: Int
        /// The part's entry (paths relative to the part's directory).
        package var source: RecordingSummary.Call
        /// The merged entry (paths relative to the merged directory).
        package var call: RecordingSummary.Call
    }

    /// The merged summary and the files to copy; nil when no part recorded (`--record none`).
    /// The parts must have recorded with one policy; the cap is the smallest of theirs.
    package static func select(_ parts: [RecordingSummary?], names: [String]) throws(InputError) -> (
        summary: RecordingSummary, picks: [Pick]
    )? {
        guard let first = parts.indices.first(where: { parts[$0] != nil }), let reference = parts[first] else { return nil }
        for (part, name) in zip(parts, names) where part?.policy != reference.policy {
            throw InputError(
                "\(name) recorded \(part.map { "with --record \($0.policy)" } ?? "no calls (--record none)"), "
                    + "\(names[first]) with --record \(reference.policy): not parts of one run"
            )
        }
        let policy = try RecordPolicy(parsing: reference.policy)
        let summaries = parts.compactMap { $0 }
        let candidates = parts.enumerated().flatMap { index, part in (part?.calls ?? []).map { (index, $0) } }
        let slowestFirst = candidates.filter { $0.1.slowestFirstAudioFromEndMs != nil }.sorted { precedes($0.1, $1.1) }
        let worst = Set(slowestFirst.prefix(policy.worstCount).map { Key($0.0, $0.1) })
        var kept: [Pick] = []
        var worstKept: [Pick] = []
        for (index, call) in candidates {
            let reasons = call.reasons.filter { $0 != "worst" }
            let inWorst = worst.contains(Key(index, call))
            guard !reasons.isEmpty || inWorst else { continue }
            var merged = call
            merged.reasons = reasons.isEmpty ? ["worst"] : reasons
            let pick = Pick(part: index, source: call, call: merged)
            if reasons.isEmpty { worstKept.append(pick) } else { kept.append(pick) }
        }
        var summary = RecordingSummary(
            policy: reference.policy,
            capBytes: summaries.map(\.capBytes).min() ?? reference.capBytes,
            leftOut: summaries.map(\.leftOut).reduce(0, +)
        )
        var admitted: [Pick] = []
        for pick in kept + worstKept.sorted(by: { precedes($0.call, $1.call) }) {
            guard summary.bytes + pick.call.bytes <= summary.capBytes else {
                summary.leftOut += 1
                continue
            }
            summary.bytes += pick.call.bytes
            admitted.append(pick)
        }
        admitted = named(admitted).sorted { precedes($0.call, $1.call) }
        summary.calls = admitted.map(\.call)
        return (summary, admitted)
    }

    /// Copies each pick's WAV and marks from its part's directory into `directory`'s
    /// `recordings/`. Returns the summary without the picks whose files were missing (a part's
    /// report.json moved without its `recordings/`), and how many those were.
    package static func copy(
        _ picks: [Pick],
        summary: RecordingSummary,
        from partDirectories: [URL],
        to directory: URL
    ) throws -> (summary: RecordingSummary, missing: Int) {
        let files = FileManager.default
        var summary = summary
        var missing = 0
        for pick in picks {
            let source = partDirectories[pick.part]
            let pairs = [(pick.source.wav, pick.call.wav), (pick.source.marks, pick.call.marks)].map {
                (source.appendingPathComponent($0.0), directory.appendingPathComponent($0.1))
            }
            guard pairs.allSatisfy({ files.fileExists(atPath: $0.0.path) }) else {
                missing += 1
                summary.bytes -= pick.call.bytes
                summary.calls.removeAll { $0 == pick.call }
                continue
            }
            for (from, to) in pairs {
                try files.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
                if files.fileExists(atPath: to.path) { try files.removeItem(at: to) }
                try files.copyItem(at: from, to: to)
            }
        }
        return (summary, missing)
    }

    /// Segments number their callers across the run, so their files' names do not collide; the
    /// parts of a merge of whole runs may share names: those go under `recordings/part-K/`
    /// (K the part's place in the merge, from 1). The marks' `wav` names the WAV beside them.
    private static func named(_ picks: [Pick]) -> [Pick] {
        let counts = Dictionary(picks.map { (fileName($0.source.wav), 1) }, uniquingKeysWith: +)
        return picks.map { pick in
            var pick = pick
            let folder = counts[fileName(pick.source.wav), default: 0] > 1 ? "recordings/part-\(pick.part + 1)/" : "recordings/"
            pick.call.wav = folder + fileName(pick.source.wav)
            pick.call.marks = folder + fileName(pick.source.marks)
            return pick
        }
    }

    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    /// Slowest first audio first, then by caller and iteration (as a run's summary).
    private static func precedes(_ a: RecordingSummary.Call, _ b: RecordingSummary.Call) -> Bool {
        (a.slowestFirstAudioFromEndMs ?? -1, b.client, b.iteration) > (b.slowestFirstAudioFromEndMs ?? -1, a.client, a.iteration)
    }

    private struct Key: Hashable {
        var part: Int
        var wav: String
        init(_ part: Int, _ call: RecordingSummary.Call) {
            self.part = part
            self.wav = call.wav
        }
    }
}
