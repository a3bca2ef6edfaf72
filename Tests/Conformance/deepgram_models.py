"""The deepgram-sdk side of the Deepgram conformance tests: the SDK's message models, a
generator of minimal valid server messages built from them, and a strict check of what vload
sends (no field the SDK does not know, no value outside the SDK's enumerations, no deprecated
field in what vload writes by itself).

Everything here is read from the installed `deepgram-sdk` (7.16.0), never written by hand, so
that the SDK stays the judge.
"""
import ast
import inspect
import json
import textwrap
import typing
import urllib.parse
from functools import lru_cache

import pydantic

from deepgram import DeepgramClient
from deepgram.agent.v1 import socket_client as agent_socket
from deepgram.agent.v1.socket_client import _sanitize_numeric_types
from deepgram.listen.v1 import client as listen_client_module
from deepgram.listen.v1 import socket_client as listen_socket
from deepgram.listen.v2 import client as listen_v2_client_module
from deepgram.listen.v2 import socket_client as listen_v2_socket

from schema_samples import minimal_value


# --- The SDK's message models -------------------------------------------------------------

def _models_of(union) -> list:
    return [member for member in typing.get_args(union) if isinstance(member, type) and issubclass(member, pydantic.BaseModel)]


#: Every server → client message model of the Voice Agent API v1 (the SDK's receive union).
AGENT_SERVER_MODELS = _models_of(agent_socket.V1SocketClientResponse)
#: Every server → client message model of streaming speech-to-text v1.
LISTEN_SERVER_MODELS = _models_of(listen_socket.V1SocketClientResponse)
#: Every server → client message model of Flux, listen v2.
LISTEN_V2_SERVER_MODELS = _models_of(listen_v2_socket.V2SocketClientResponse)
#: Whether the agent API sends binary (audio) frames, per the SDK's receive union.
AGENT_SERVER_SENDS_BINARY = bytes in typing.get_args(agent_socket.V1SocketClientResponse)


def message_type(model) -> str:
    """The `type` discriminator a model's messages carry (its `type` field's literal default)."""
    return model.model_fields["type"].default


#: The server models by message type (`History` has two models; either serves a lookup).
AGENT_SERVER_MODELS_BY_TYPE = {message_type(model): model for model in AGENT_SERVER_MODELS}
LISTEN_SERVER_MODELS_BY_TYPE = {message_type(model): model for model in LISTEN_SERVER_MODELS}
LISTEN_V2_SERVER_MODELS_BY_TYPE = {message_type(model): model for model in LISTEN_V2_SERVER_MODELS}


# --- Minimal valid instances, from the model's JSON schema ---------------------------------

def build(model, **overrides):
    """A valid instance of `model`: the minimal one, with `overrides` on top, validated by the SDK."""
    schema = model.model_json_schema()
    data = minimal_value(schema, schema)
    data.update(overrides)
    return model.model_validate(data)


def wire_text(instance) -> str:
    """The instance as the SDK serializes it."""
    return instance.model_dump_json()


# --- Strict validation of what vload sends -------------------------------------------------

def _open_enum_literals(annotation):
    """The literals of an "open enumeration" annotation (`Union[Literal[...], Any]`, maybe
    Optional): the values the SDK knows, where `Any` only keeps newer values from failing."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is not typing.Union or typing.Any not in args:
        return None
    literals = set()
    for arg in args:
        if typing.get_origin(arg) is typing.Literal:
            literals.update(typing.get_args(arg))
    return literals or None


@lru_cache(maxsize=None)
def _attribute_docstrings(cls) -> dict:
    """The docstrings written under the field declarations of `cls` (Fern puts the field
    documentation there, so pydantic's `description` is empty)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    docs = {}
    body = tree.body[0].body
    for statement, following in zip(body, body[1:]):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = following.value.value.strip()
    return docs


def _field_doc(model_class, name: str) -> str:
    for cls in model_class.__mro__:
        if isinstance(cls, type) and issubclass(cls, pydantic.BaseModel) and name in _attribute_docstrings(cls):
            return _attribute_docstrings(cls)[name]
    return ""


def _walk(value, path: str):
    """(path, model) for every pydantic model in the tree of `value`."""
    if isinstance(value, pydantic.BaseModel):
        yield path, value
        for name in type(value).model_fields:
            yield from _walk(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{path}.{key}")


def unknown_fields(instance) -> list:
    """`path: [names]` for every model in the tree that holds members the SDK does not know."""
    return [f"{path}: {sorted(model.model_extra)}" for path, model in _walk(instance, "$") if model.model_extra]


def unknown_enum_values(instance) -> list:
    """`path = value` for every open-enumeration field whose value is none the SDK knows."""
    problems = []
    for path, model in _walk(instance, "$"):
        for name, field in type(model).model_fields.items():
            value = getattr(model, name)
            literals = _open_enum_literals(field.annotation)
            if literals and value is not None and value not in literals:
                problems.append(f"{path}.{name} = {value!r} (the SDK knows {sorted(literals)[:8]}…)")
    return problems


def deprecated_fields(instance) -> list:
    """`path.name` for every field set in the tree that the SDK documents as deprecated."""
    problems = []
    for path, model in _walk(instance, "$"):
        for name in model.model_fields_set:
            doc = _field_doc(type(model), name)
            if doc.lower().startswith("deprecated"):
                problems.append(f"{path}.{name}: {doc.splitlines()[0]}")
    return problems


def _contained(sent, sdk, path="$") -> list:
    """Where the SDK's re-serialization of a message differs from what was sent (the SDK may add
    defaults; it must not change or drop anything)."""
    if isinstance(sent, dict) and isinstance(sdk, dict):
        problems = []
        for key, value in sent.items():
            if key not in sdk:
                problems.append(f"{path}.{key} is dropped by the SDK")
            else:
                problems += _contained(value, sdk[key], f"{path}.{key}")
        return problems
    if isinstance(sent, list) and isinstance(sdk, list) and len(sent) == len(sdk):
        return [problem for index, (a, b) in enumerate(zip(sent, sdk)) for problem in _contained(a, b, f"{path}[{index}]")]
    if sent != sdk or type(sent) is not type(sdk) and not (isinstance(sent, (int, float)) and isinstance(sdk, (int, float))):
        return [f"{path}: sent {sent!r}, the SDK reads {sdk!r}"]
    return []


def validate_strictly(model, text: str):
    """`text` as an instance of `model`, validated in strict JSON mode (a JSON integer where the
    SDK wants an int, no coercion), with no member the SDK does not know anywhere in the tree,
    no value outside the SDK's enumerations, and nothing the SDK would re-serialize differently.
    Raises AssertionError naming every problem."""
    try:
        instance = model.model_validate_json(text, strict=True)
    except pydantic.ValidationError as error:
        raise AssertionError(f"{model.__name__} rejects vload's {text}:\n{error}") from None
    problems = [f"unknown member {item}" for item in unknown_fields(instance)]
    problems += [f"unknown value {item}" for item in unknown_enum_values(instance)]
    problems += _contained(json.loads(text), _sanitize_numeric_types(instance.dict()))
    assert not problems, f"{model.__name__} vs vload's {text}:\n  " + "\n  ".join(problems)
    return instance


# --- Listen v1 connect options -------------------------------------------------------------

def _connect_hints(connect) -> dict:
    """The keyword parameters of an SDK `connect` that become the query."""
    return {
        name: hint
        for name, hint in typing.get_type_hints(connect).items()
        if name not in ("self", "return", "authorization", "request_options")
    }


def _connect_required(connect, hints) -> list:
    return sorted(
        name
        for name, parameter in inspect.signature(connect).parameters.items()
        if name in hints and parameter.default is inspect.Parameter.empty
    )


#: The keyword parameters of the SDK's `listen.v1.connect` (the query of /v1/listen).
LISTEN_CONNECT_HINTS = _connect_hints(listen_client_module.V1Client.connect)
LISTEN_CONNECT_REQUIRED = _connect_required(listen_client_module.V1Client.connect, LISTEN_CONNECT_HINTS)
#: The same for Flux's `listen.v2.connect` (the query of /v2/listen).
LISTEN_V2_CONNECT_HINTS = _connect_hints(listen_v2_client_module.V2Client.connect)
LISTEN_V2_CONNECT_REQUIRED = _connect_required(listen_v2_client_module.V2Client.connect, LISTEN_V2_CONNECT_HINTS)


def listen_literals(name: str, hints=None):
    """The values the SDK knows for connect option `name` (None: free-form)."""
    hint = (hints or LISTEN_CONNECT_HINTS)[name]
    literals = set()
    for arg in typing.get_args(hint) or (hint,):
        if typing.get_origin(arg) is typing.Literal:
            literals.update(typing.get_args(arg))
    return literals or None


class _Captured(Exception):
    def __init__(self, url):
        super().__init__(url)
        self.url = url


def sdk_listen_url(version="v1", **options) -> str:
    """The URL the SDK's own `listen.<version>.connect(**options)` opens (captured before any socket)."""
    def capture(url, **_):
        raise _Captured(url)

    module = {"v1": listen_client_module, "v2": listen_v2_client_module}[version]
    original = module.websockets_sync_client.connect
    module.websockets_sync_client.connect = capture
    try:
        with getattr(DeepgramClient(api_key="conformance").listen, version).connect(**options):
            pass
    except _Captured as captured:
        return captured.url
    finally:
        module.websockets_sync_client.connect = original
    raise AssertionError("the SDK opened no socket")


def query_items(url: str) -> list:
    return urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query, keep_blank_values=True)
