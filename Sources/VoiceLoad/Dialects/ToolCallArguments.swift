/// Tool-call arguments between their JSON text (`AgentOutput.toolCall`,
/// `NormalizedEvent.toolCall`) and the wire shapes that carry them as a JSON value (ADK
/// `tool_args` and `functionCall.args`, Datagrid `arguments`).
enum ToolCallArguments {
    /// The Foundation value to put on the wire for `text`: the JSON it holds, an empty object
    /// when there are no arguments, and the text itself (a string) when it is not JSON.
    static func foundationObject(_ text: String?) -> Any {
        guard let text else { return [String: Any]() }
        return JSONValue(parsing: text)?.foundationObject ?? text
    }

    /// The JSON text of arguments found on the wire: a string is taken to be JSON text already
    /// (as OpenAI and Deepgram send it), any other JSON value is written compactly with sorted
    /// keys; nil when there are none or the value is not JSON.
    static func text(_ value: Any?) -> String? {
        switch value {
        case nil: return nil
        case let string as String: return string
        case let value?: return JSONValue(foundationObject: value).map(JSONText.text)
        }
    }
}
