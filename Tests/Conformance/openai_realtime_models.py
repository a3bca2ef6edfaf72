"""The OpenAI Realtime message models of the official `openai` SDK, as the conformance suite uses them.

- the client and server event unions (GA `openai.types.realtime`, beta `openai.types.beta.realtime`),
  enumerated from the unions themselves so that no member is ever forgotten;
- `strict_validate`: SDK validation that also refuses what the SDK does not know (its models
  accept extra fields, so plain validation would accept junk);
- `minimal_event`: a minimal valid instance of a server event model, generated from the model's
  own JSON schema, validated and serialized by the SDK.
"""
import json
import typing
from functools import lru_cache

import pydantic
from openai.types.beta.realtime import realtime_client_event as beta_client_module
from openai.types.beta.realtime import realtime_server_event as beta_server_module
from openai.types.realtime import realtime_client_event as ga_client_module
from openai.types.realtime import realtime_server_event as ga_server_module

from schema_samples import minimal_value

GA_CLIENT_UNION = ga_client_module.RealtimeClientEvent
GA_SERVER_UNION = ga_server_module.RealtimeServerEvent
BETA_CLIENT_UNION = beta_client_module.RealtimeClientEvent
BETA_SERVER_UNION = beta_server_module.RealtimeServerEvent


def union_members(union) -> list:
    """The models of an `Annotated[Union[...], PropertyInfo(discriminator="type")]` alias."""
    inner = typing.get_args(union)[0] if typing.get_origin(union) is typing.Annotated else union
    return list(typing.get_args(inner))


def event_type(model) -> str:
    """The `type` discriminator literal of one event model."""
    literals = typing.get_args(model.model_fields["type"].annotation)
    assert len(literals) == 1, f"{model.__name__}.type is not a single literal: {literals}"
    return literals[0]


def members_by_type(union) -> dict:
    """{event type: model} for every member of a union."""
    result = {}
    for model in union_members(union):
        name = event_type(model)
        assert name not in result, f"two members of the union have type {name}"
        result[name] = model
    return result


GA_SERVER_MODELS = members_by_type(GA_SERVER_UNION)
BETA_SERVER_MODELS = members_by_type(BETA_SERVER_UNION)
GA_CLIENT_MODELS = members_by_type(GA_CLIENT_UNION)
BETA_CLIENT_MODELS = members_by_type(BETA_CLIENT_UNION)


@lru_cache(maxsize=None)
def _adapter(union):
    return pydantic.TypeAdapter(union)


def unknown_fields(value, path="$") -> list:
    """Every field the SDK kept as an extra anywhere in a validated model tree, as `path.field`."""
    found = []
    if isinstance(value, pydantic.BaseModel):
        for key in sorted((value.model_extra or {}).keys()):
            found.append(f"{path}.{key} (in {type(value).__name__})")
        for name in type(value).model_fields:
            found += unknown_fields(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, (list, tuple)):
        for index, element in enumerate(value):
            found += unknown_fields(element, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, element in value.items():
            found += unknown_fields(element, f"{path}.{key}")
    return found


def strict_validate(text: str, union=GA_CLIENT_UNION):
    """The SDK model of the JSON event `text`; fails when the SDK rejects it, when it carries a
    field the SDK does not know (at any depth), or when the SDK had to coerce a value."""
    raw = json.loads(text)
    model = _adapter(union).validate_python(raw)
    extras = unknown_fields(model)
    assert not extras, f"{raw.get('type')}: fields the SDK does not know: {extras}\nframe: {text}"
    # What the SDK read, written back, is what was sent: no value was coerced on the way
    # (a "24000" for 24000, a 1 for true...).
    dumped = model.model_dump(mode="json", exclude_unset=True)
    assert _same_json(dumped, raw), (
        f"{raw.get('type')}: the SDK reads the frame differently\nsent: {raw}\nSDK:  {dumped}"
    )
    return model


def _same_json(a, b) -> bool:
    """Equal as JSON text: 24000 is not 24000.0, true is not 1."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# ---------------------------------------------------------------------------------------------
# Minimal instances from the SDK's JSON schema

# Sensible values for required string fields, by field name.
_STRING_BY_NAME = {
    "event_id": "event_1",
    "response_id": "resp_1",
    "item_id": "item_1",
    "call_id": "call_1",
    "previous_item_id": "item_0",
    "id": "id_1",
    "name": "get_weather",
    "arguments": "{}",
}


def minimal_raw(model) -> dict:
    """The required fields of `model`, filled from its JSON schema."""
    schema = model.model_json_schema()
    return minimal_value(schema, schema, strings=_STRING_BY_NAME)


def deep_merge(base, overlay):
    if isinstance(base, dict) and isinstance(overlay, dict):
        merged = dict(base)
        for key, value in overlay.items():
            merged[key] = deep_merge(base.get(key), value) if key in base else value
        return merged
    return overlay


def minimal_event(model, overrides=None):
    """A valid SDK instance of `model`: its required fields, overlaid with `overrides`."""
    raw = deep_merge(minimal_raw(model), overrides or {})
    return model.model_validate(raw)


def sdk_frames(model, overrides=None) -> dict:
    """The SDK's own serializations of a minimal `model` event: `minimal` (only what was set)
    and `full` (every field, absent ones as null)."""
    instance = minimal_event(model, overrides)
    return {
        "minimal": instance.model_dump_json(exclude_unset=True),
        "full": instance.model_dump_json(exclude_none=False),
    }
