/// Where per-turn and per-session rows go as they happen (the CSV files of a run).
package protocol RowSink: Sendable {
    func write(_ turn: TurnRecord)
    func write(_ session: SessionRecord)
}
