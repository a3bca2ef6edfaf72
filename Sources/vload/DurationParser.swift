import VoiceLoad

/// Parses durations like `500ms`, `30s`, `2m`, `1h` or a plain number of seconds.
enum DurationParser {
    static func milliseconds(_ text: String, option: String) throws(InputError) -> Int {
        try DurationText.milliseconds(text, option: option)
    }
}
