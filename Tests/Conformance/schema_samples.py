"""Minimal valid values generated from a pydantic model's JSON schema (`model_json_schema()`).

Shared by the Deepgram and OpenAI conformance modules: the smallest message an SDK model
accepts, which the tests then overlay with the fields they care about and hand back to the SDK
for validation.
"""


def _resolve(schema: dict, root: dict) -> dict:
    """`schema` with its `$ref` and `allOf` wrappers inlined; the wrapper's own keys win."""
    while "$ref" in schema:
        rest = {key: value for key, value in schema.items() if key != "$ref"}
        schema = {**root["$defs"][schema["$ref"].rsplit("/", 1)[-1]], **rest}
    if "allOf" in schema:
        rest = {key: value for key, value in schema.items() if key != "allOf"}
        schema = {**_resolve(schema["allOf"][0], root), **rest}
    return schema


def minimal_value(schema: dict, root: dict, strings: dict | None = None, name: str = "", depth: int = 0):
    """The smallest value `schema` accepts: required members only, the first const/enum value,
    the first non-null option of a union, 0, False, [] and "x" (or `strings[name]`, the value
    for a string field called `name`). `root` holds the `$defs` that `$ref`s point into."""
    assert depth < 40, f"schema too deep at {name!r}"
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [option for option in schema[key] if _resolve(option, root).get("type") != "null"]
            return minimal_value(options[0] if options else {"type": "null"}, root, strings, name, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((item for item in kind if item != "null"), "null")
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        return {
            field: minimal_value(properties[field], root, strings, field, depth + 1)
            for field in schema.get("required", [])
        }
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "null":
        return None
    if kind == "string":
        return (strings or {}).get(name, "x")
    return "x"  # `Any`: any JSON will do
