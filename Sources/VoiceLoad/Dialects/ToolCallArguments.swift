/// Tool-call arguments between their JSON text (`AgentOutput.toolCall`,
/// `NormalizedEvent.toolCall`) and the wire shapes that carry them as a JSON value (ADK
/// `tool_args` and `functionCall.args`, Datagrid `arguments`).
enum ToolCallArguments {
    /// The value to put on the wire for `text`: the JSON it holds, an empty object when there
    /// are no arguments, and the text itself (a string) when it is not JSON.
    static func value(_ text: String?) -> JSONValue {
        guard let text else { return .object([:]) }
        return JSONValue(parsing: text) ?? .string(text)
    }

    /// The JSON text of arguments found on the wire: a string is taken to be JSON text already
    /// (as OpenAI and Deepgram send it), any other JSON value is written compactly with sorted
    /// keys; nil when there are none.
    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case nil: return nil
        case .string(let string)?: return string
        case let value?: return JSONText.text(value)
        }
    }
}
