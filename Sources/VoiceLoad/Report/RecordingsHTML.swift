import Foundation

/// report.html's recordings section (docs/recordings.md): each recorded call with a waveform of
/// both channels and its marks (SVG), an audio player and its figures; and the link from the
/// latency chart to the slowest call. A click on a mark (on the waveform or in the list under
/// it) moves the call's player to the mark and plays it (`seekScript`, the page's one script).
enum RecordingsHTML {
    static let width = 900.0
    static let laneHeight = 52.0

    /// The id of a recording's entry, from its WAV's path: `recording-client-3-iteration-0`
    /// (`recording-part-2-client-3-iteration-0` for `recordings/part-2/…`, a merge's).
    static func anchor(_ call: RecordingSummary.Call) -> String {
        var name = Substring(call.wav)
        if name.hasPrefix("recordings/") { name = name.dropFirst("recordings/".count) }
        if name.hasSuffix(".wav") { name = name.dropLast(".wav".count) }
        return "recording-" + name.replacingOccurrences(of: "/", with: "-")
    }

    /// The attributes that make an element seek the player of `call`'s entry to `ms` on a click.
    static func seek(_ call: RecordingSummary.Call, ms: Double) -> String {
        "data-recording=\"\(anchor(call))\" data-seek-ms=\"\(String(format: "%.2f", ms))\""
    }

    /// Moves the player of the clicked mark's recording to the mark and plays it. Delegated from
    /// the document, so one small script serves every mark of every recording.
    static let seekScript = """
        <script>
        document.addEventListener("click", function (event) {
          var mark = event.target.closest("[data-seek-ms]");
          var entry = mark && document.getElementById(mark.getAttribute("data-recording"));
          var player = entry && entry.querySelector("audio");
          if (!player) return;
          player.currentTime = Number(mark.getAttribute("data-seek-ms")) / 1000;
          var playing = player.play();
          if (playing) playing.catch(function () {});
        });
        </script>
        """

    /// One line under the latency chart: the slowest recorded call, one click away; the click
    /// also plays it from the end of speech of its slowest turn.
    static func slowestLink(_ views: [RecordingView]) -> String? {
        guard let slowest = views.first(where: { $0.call.slowestFirstAudioFromEndMs != nil }),
            let firstAudioMs = slowest.call.slowestFirstAudioFromEndMs
        else { return nil }
        let call = slowest.call
        let text =
            "▶ Listen to the slowest call: client \(call.client), iteration \(call.iteration), first audio \((HTMLText.ms(firstAudioMs) + " ms"))"
        let seeking = slowestSpeechEndMs(slowest).map { " " + seek(call, ms: $0) } ?? ""
        return "<p class=\"slowest\"><a href=\"#\(anchor(call))\"\(seeking)>\(HTMLText.escape(text))</a></p>"
    }

    /// The end of speech of the call's slowest turn (by first audio), where listening to the wait begins.
    static func slowestSpeechEndMs(_ view: RecordingView) -> Double? {
        guard let marks = view.marks,
            let turn = marks.turns.filter({ $0.firstAudioFromEndMs != nil }).max(by: { $0.firstAudioFromEndMs! < $1.firstAudioFromEndMs! })
        else { return nil }
        return marks.marks.first { $0.kind == .speechEnd && $0.turn == turn.turn }?.ms
    }

    static func section(_ summary: RecordingSummary?, _ views: [RecordingView]) -> String {
        guard let summary else { return "<p class=\"note\">No calls recorded (--record none).</p>" }
        var lines = [
            "<p class=\"note\">"
                + HTMLText.escape(
                    "\(summary.calls.count) recorded (\(summary.policy)), \(megabytes(summary.bytes)) of \(megabytes(summary.capBytes)) allowed"
                        + (summary.leftOut > 0 ? "; \(summary.leftOut) left out by the cap" : "")
                        + ". Left channel (blue): the caller's microphone as sent; right (orange): the agent as the caller heard it. Time 0 is the connect."
                ) + "</p>"
        ]
        for view in views { lines.append(entry(view)) }
        if !views.isEmpty { lines.append(seekScript) }
        return lines.joined(separator: "\n")
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    private static func entry(_ view: RecordingView) -> String {
        let call = view.call
        let heading = "Client \(call.client), iteration \(call.iteration)"
        var facts: [(String, String)] = [
            ("Why", call.reasons.joined(separator: ", ")),
            ("Outcome", call.outcome + (view.marks?.errorClass.map { " (\($0))" } ?? "")),
            ("Length", (HTMLText.ms(call.durationMs) + " ms")),
            ("Slowest first audio", call.slowestFirstAudioFromEndMs.map { (HTMLText.ms($0) + " ms") } ?? "n/a"),
        ]
        if let turns = view.marks?.turns, !turns.isEmpty {
            let text = turns.map {
                "turn \($0.turn) (\($0.label)): " + ($0.firstAudioFromEndMs.map { (HTMLText.ms($0) + " ms") } ?? $0.outcome)
            }
            facts.append(("First audio", text.joined(separator: " · ")))
        }
        facts.append(("Files", "\(call.wav), \(call.marks)"))
        return [
            "<article class=\"recording\" id=\"\(anchor(call))\">",
            "<h3>\(HTMLText.escape(heading))</h3>",
            waveform(view),
            markList(view),
            "<audio controls preload=\"none\" src=\"\(HTMLText.escape(call.wav))\"></audio>",
            HTMLReport.definitionList(facts),
            "</article>",
        ].joined(separator: "\n")
    }

    /// Both channels' peaks, one lane each, and the marks as labelled vertical lines.
    static func waveform(_ view: RecordingView) -> String {
        let durationMs = max(view.call.durationMs, 1)
        let top = 30.0
        let height = top + 2 * laneHeight + 24
        var parts = [
            "<svg class=\"waveform\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\" aria-label=\"waveform of both channels with the call's marks\">",
            lane(view.leftPeaks, centre: top + laneHeight / 2, color: "#2563eb"),
            lane(view.rightPeaks, centre: top + laneHeight * 1.5, color: "#d97706"),
        ]
        // Labels take turns on two rows, so that the end of speech and the first audio just after
        // it do not run into each other; one near an edge is anchored inside the picture.
        // Each mark is a group that seeks the player on a click: its line (with a wider invisible
        // one to hit) and its label, or a stall's band.
        var labelRow = 0
        for mark in view.marks?.marks ?? [] {
            let position = mark.ms / durationMs * width
            let x = SVGChart.label(position)
            let (color, label) = style(of: mark.kind)
            parts.append("<g class=\"mark\" \(seek(view.call, ms: mark.ms))>")
            if let untilMs = mark.untilMs {
                let w = SVGChart.label(max(1, (untilMs - mark.ms) / durationMs * width))
                parts.append(
                    "<rect x=\"\(x)\" y=\"\(top)\" width=\"\(w)\" height=\"\(2 * laneHeight)\" fill=\"\(color)\" opacity=\"0.25\"><title>\(label) \(SVGChart.label(mark.ms))–\(SVGChart.label(untilMs)) ms</title></rect>"
                )
            } else {
                let ends = "x1=\"\(x)\" x2=\"\(x)\" y1=\"\(top)\" y2=\"\(top + 2 * laneHeight)\""
                parts.append("<line \(ends) class=\"hit\"/>")
                parts.append(
                    "<line \(ends) stroke=\"\(color)\" stroke-width=\"1.5\"><title>\(label) at \(SVGChart.label(mark.ms)) ms</title></line>"
                )
                let anchor = position < 60 ? "start" : position > width - 60 ? "end" : "middle"
                let y = top - 4 - Double(labelRow) * 13
                labelRow = 1 - labelRow
                parts.append("<text x=\"\(x)\" y=\"\(SVGChart.label(y))\" fill=\"\(color)\" text-anchor=\"\(anchor)\">\(label)</text>")
            }
            parts.append("</g>")
        }
        let axisY = top + 2 * laneHeight + 16
        parts.append("<text x=\"0\" y=\"\(axisY)\">0 s</text>")
        parts.append("<text x=\"\(Int(width))\" y=\"\(axisY)\" text-anchor=\"end\">\(SVGChart.label(durationMs / 1_000)) s</text>")
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// The marks as buttons under the waveform, in time order: each plays the call from there.
    static func markList(_ view: RecordingView) -> String {
        let marks = view.marks?.marks ?? []
        guard !marks.isEmpty else { return "" }
        let buttons = marks.map { mark in
            let label = style(of: mark.kind).label + (mark.turn.map { " (turn \($0))" } ?? "")
            let time = HTMLText.ms(mark.ms) + (mark.untilMs.map { "–" + HTMLText.ms($0) } ?? "") + " ms"
            return "<button type=\"button\" \(seek(view.call, ms: mark.ms))>\(HTMLText.escape(label)) · \(time)</button>"
        }
        return "<p class=\"marks\">Play from: " + buttons.joined(separator: " ") + "</p>"
    }

    private static func lane(_ peaks: [Double], centre: Double, color: String) -> String {
        guard !peaks.isEmpty else { return "" }
        let step = width / Double(peaks.count)
        let half = laneHeight / 2 - 1
        let path = peaks.enumerated().map { index, peak in
            let x = SVGChart.label(Double(index) * step)
            let extent = max(0.5, peak * half)
            return "M\(x) \(SVGChart.label(centre - extent))V\(SVGChart.label(centre + extent))"
        }.joined()
        return "<path d=\"\(path)\" stroke=\"\(color)\" stroke-width=\"\(SVGChart.label(max(1, step)))\" fill=\"none\"/>"
    }

    private static func style(of kind: CallMark.Kind) -> (color: String, label: String) {
        switch kind {
        case .ready: return ("#6b7280", "ready")
        case .speechEnd: return ("#1d4ed8", "end of speech")
        case .firstAudio: return ("#15803d", "first audio")
        case .bargeIn: return ("#7c3aed", "barge-in")
        case .ack: return ("#db2777", "ack")
        case .stall: return ("#b91c1c", "stall")
        }
    }
}
