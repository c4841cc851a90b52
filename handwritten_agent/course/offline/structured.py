"""Structured outputs on the offline server: ``response_format`` and ``strict`` function tools.

The real APIs offer three levels of "give me JSON", and this module gives the offline server each
of them with the same contract:

- ``{"type": "json_object"}`` (JSON mode): the reply is one JSON object, of no particular shape.
  As on OpenAI, the messages must contain the word "json", else the request is refused with a 400.
- ``{"type": "json_schema", "json_schema": {"name", "schema", "strict"}}``: the reply is JSON valid
  against ``schema``. With ``strict: true`` only the subset the real API supports is accepted —
  every object has ``additionalProperties: false`` and lists every property in ``required`` (an
  optional field is written as required and nullable) — else a 400 in the API's own English words.
- ``"strict": true`` on a function tool: the same subset for its ``parameters``, and the call's
  arguments are guaranteed to validate (arguments that cannot be made valid — a fault such as
  ``course-sim:malformed_json`` — become a refusal instead of a call).

How the rule engine produces the content: the schema is read like a tool's ``parameters`` and
filled by the simulator's own argument filler (``simulator.arguments.fill_arguments``) from the
last user message (and the tool results after it), so an extraction works exactly when the
schema's descriptions say what to look for. A nested object is filled the same way, one level at
a time. A field the conversation does not give:

- nullable (``"type": ["string", "null"]``) → ``null``;
- an array → ``[]`` (nothing of that kind was mentioned);
- anything else → no guess: the whole reply becomes an honest **refusal** (the ``refusal`` field
  of the message, ``content`` null), naming the fields it could not fill. A real model under
  constrained decoding cannot refuse that way: the grammar forces it to write *some* value, so it
  invents one. That is why the course teaches making optional fields nullable.

The result is validated with ``jsonschema`` before it is sent; a value that still fails (a
``pattern`` or ``minimum`` the filler did not meet) is treated as not given. A ``json_object``
request is answered with the JSON object the rule engine's reply already holds (the Day 2
prompt-JSON mode writes one, messily; JSON mode sends it clean), else with the keys of a JSON
example found in the prompt filled the same way, else ``{"reply": <its plain reply>}``.

Refusals and cut-off replies stay representable: the server sends ``refusal`` as the API does, and
``max_tokens`` still cuts the JSON mid-way with ``finish_reason: "length"`` — constrained decoding
guarantees the shape of a *finished* reply only.

Left out: ``$ref``/``$defs``, ``anyOf`` (other than "X or null") and arrays of objects are
accepted and validated but never filled from the conversation (an array stays ``[]``, anything else
is refused), and so is a schema whose root is not an object (the API's strict mode refuses it);
the API's limits on schema size and nesting depth; safety refusals (the only refusal here is "the
conversation does not say").
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from ...messages import message_text
from ...tokens import estimate_tokens
from .backend import BackendError, ChatRequest, Completion

NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_NESTING = 5  # nested objects filled one level at a time, at most this deep


@dataclass
class Structure:
    """What a request asks of the reply's shape: its response format and its strict tools."""

    kind: str = "text"  # "text", "json_object" or "json_schema"
    name: str = ""
    schema: dict[str, Any] | None = None
    strict: bool = False
    strict_tools: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.kind != "text" or bool(self.strict_tools)


@dataclass
class StructuredReply:
    """A completion whose content obeys the request's format, or a refusal (content ``None``)."""

    completion: Completion
    refusal: str | None = None


# ---------------------------------------------------------------------------------------------
# Validating the request, in the API's words
# ---------------------------------------------------------------------------------------------


def _bad(message: str, param: str | None) -> BackendError:
    return BackendError(400, message, type="invalid_request_error", param=param)


def strict_problem(schema: Any, context: tuple[str, ...] = ()) -> str | None:
    """The first reason ``schema`` is outside the strict subset, in the API's words, or ``None``."""
    if not isinstance(schema, dict):
        return None
    here = f"In context={context!r}, "
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "object" in kinds or "properties" in schema:
        if schema.get("additionalProperties") is not False:
            return here + "'additionalProperties' is required to be supplied and to be false."
        properties = schema.get("properties") or {}
        required = schema.get("required")
        missing = [
            key for key in properties if not isinstance(required, list) or key not in required
        ]
        if missing:
            return (
                here + "'required' is required to be supplied and to be an array including every"
                f" key in properties. Missing '{missing[0]}'."
            )
        for key, sub in properties.items():
            found = strict_problem(sub, context + ("properties", key))
            if found:
                return found
    if isinstance(schema.get("items"), dict):
        found = strict_problem(schema["items"], context + ("items",))
        if found:
            return found
    for keyword in ("anyOf", "$defs", "definitions"):
        parts = schema.get(keyword)
        named = parts.items() if isinstance(parts, dict) else enumerate(parts or [])
        for key, sub in named:
            found = strict_problem(sub, context + (keyword, str(key)))
            if found:
                return found
    return None


def _check_schema(schema: Any, what: str, param: str) -> None:
    if not isinstance(schema, dict):
        raise _bad(f"Invalid schema for {what}: schema must be a JSON object.", param)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        raise _bad(f"Invalid schema for {what}: {exc.message}", param) from exc


def _a_type(value: Any) -> str:
    """A JSON value's type as the API names it in its messages ("a string", "an array")."""
    if value is None:
        return "null"
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a decimal")):
        if isinstance(value, kind):
            return name
    return "a string" if isinstance(value, str) else "an array"


def mentions_json(messages: list[dict[str, Any]]) -> bool:
    """OpenAI's rule for JSON mode: the word "json" somewhere in the messages, in any case."""
    return any("json" in message_text(m).lower() for m in messages)


def read_structure(request: ChatRequest) -> Structure:
    """The request's ``response_format`` and strict tools, checked as the API checks them.

    Raises ``BackendError(400)`` with the real API's message for each mistake.
    """
    structure = Structure()
    for i, tool in enumerate(request.tools or []):
        function = tool.get("function") or {}
        if function.get("strict") is True:
            name = str(function.get("name"))
            parameters = function.get("parameters") or {"type": "object", "properties": {}}
            param = f"tools[{i}].function.parameters"
            _check_schema(parameters, f"function '{name}'", param)
            problem = strict_problem(parameters)
            if problem:
                raise _bad(f"Invalid schema for function '{name}': {problem}", param)
            structure.strict_tools[name] = parameters
    form = request.extra.get("response_format")
    if form is None:
        return structure
    if not isinstance(form, dict):
        raise _bad(
            "Invalid type for 'response_format': expected an object, but got"
            f" {_a_type(form)} instead.",
            "response_format",
        )
    kind = form.get("type")
    if kind not in ("text", "json_object", "json_schema"):
        raise _bad(
            f"Invalid value: '{kind}'. Supported values are: 'text', 'json_object', and"
            " 'json_schema'.",
            "response_format.type",
        )
    structure.kind = str(kind)
    if kind == "json_object" and not mentions_json(request.messages):
        raise _bad(
            "'messages' must contain the word 'json' in some form, to use 'response_format' of"
            " type 'json_object'.",
            "messages",
        )
    if kind == "json_schema":
        spec = form.get("json_schema")
        if not isinstance(spec, dict):
            raise _bad("Missing required parameter: 'response_format.json_schema'.", None)
        name = spec.get("name")
        if not isinstance(name, str) or not NAME_PATTERN.match(name):
            raise _bad(
                "Invalid 'response_format.json_schema.name': string does not match pattern."
                " Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                "response_format.json_schema.name",
            )
        schema = spec.get("schema") or {"type": "object", "properties": {}}
        what = f"response_format '{name}'"
        _check_schema(schema, what, "response_format")
        structure.name, structure.schema = name, schema
        structure.strict = spec.get("strict") is True
        if structure.strict:
            if schema.get("type") != "object":
                raise _bad(
                    f"Invalid schema for {what}: schema must be a JSON Schema of"
                    f" 'type: \"object\"', got 'type: \"{schema.get('type')}\"'.",
                    "response_format",
                )
            problem = strict_problem(schema)
            if problem:
                raise _bad(f"Invalid schema for {what}: {problem}", "response_format")
    return structure


# ---------------------------------------------------------------------------------------------
# Filling a schema from the conversation
# ---------------------------------------------------------------------------------------------


def nullable(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    if kinds == "null" or isinstance(kinds, list) and "null" in kinds:
        return True
    return any(isinstance(s, dict) and s.get("type") == "null" for s in schema.get("anyOf") or [])


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """A nullable written as ``anyOf: [X, {"type": "null"}]`` (pydantic's ``X | None``) read as X
    with ``null`` added to its type, which is how the argument filler reads schemas."""
    options = [s for s in schema.get("anyOf") or [] if isinstance(s, dict)]
    others = [s for s in options if s.get("type") != "null"]
    if len(options) != 2 or len(others) != 1 or not isinstance(others[0].get("type"), str):
        return schema
    merged = {k: v for k, v in schema.items() if k != "anyOf"}
    merged.update({k: v for k, v in others[0].items() if k not in merged})
    merged["type"] = [others[0]["type"], "null"]
    return merged


def _kind(schema: dict[str, Any]) -> str:
    kinds = schema.get("type")
    if isinstance(kinds, list):
        kinds = next((k for k in kinds if k != "null"), "null")
    return str(kinds or ("object" if "properties" in schema else "string"))


def conversation_text(messages: list[dict[str, Any]]) -> tuple[str, str]:
    """The last user message, and the same followed by the tool results after it."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    user = message_text(messages[last_user]) if last_user >= 0 else ""
    results = [message_text(m) for m in messages[last_user + 1 :] if m.get("role") == "tool"]
    return user, "\n".join([user, *results])


def _relaxed(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema the filler reads: nullable fields are optional (null means "not said")."""
    relaxed = dict(schema)
    properties = schema.get("properties") or {}
    relaxed["required"] = [
        key
        for key in schema.get("required") or []
        if isinstance(properties.get(key), dict) and not nullable(properties[key])
    ]
    return relaxed


def _fill_object(
    schema: dict[str, Any], text: str, everything: str, now: datetime, depth: int, path: str
) -> tuple[dict[str, Any], list[str]]:
    """Values for ``schema``'s properties read from ``text``, and the paths nobody could fill."""
    from .simulator.arguments import FillContext, fill_arguments
    from .simulator.text import normalize

    properties = {k: v for k, v in (schema.get("properties") or {}).items() if isinstance(v, dict)}
    required = set(schema.get("required") or [])
    flat = {
        k: _plain(v)
        for k, v in properties.items()
        if not ("properties" in v and _kind(v) == "object")
    }
    relaxed = _relaxed(schema)
    spec = {
        "name": "structured_output",
        "description": str(schema.get("description") or ""),
        "parameters": {
            "type": "object",
            "properties": flat,
            "required": [k for k in relaxed["required"] if k in flat],
        },
    }
    said, known = normalize(text), normalize(everything)
    outcome = fill_arguments(spec, FillContext(segment=said, context=said, request=known, now=now))
    found = dict(outcome.arguments[0]) if outcome.arguments else {}
    validator = Draft202012Validator
    value: dict[str, Any] = {}
    unfilled: list[str] = []
    for key, sub in properties.items():
        where = f"{path}.{key}" if path else key
        if _kind(sub) == "object" and "properties" in sub and depth < MAX_NESTING:
            inner, missing = _fill_object(sub, text, everything, now, depth + 1, where)
            if not missing:
                value[key] = inner
                continue
            if nullable(sub) or key not in required:
                if key in required:
                    value[key] = None
                continue
            unfilled.extend(missing)
            continue
        if key in found and validator(sub).is_valid(found[key]):
            value[key] = found[key]
        elif key not in required:
            continue
        elif nullable(sub):
            value[key] = None
        elif _kind(sub) == "array":
            value[key] = []
        else:
            unfilled.append(where)
    return value, unfilled


def fill_schema(
    schema: dict[str, Any], messages: list[dict[str, Any]], now: datetime
) -> tuple[Any, list[str]]:
    """A value for ``schema`` read from the conversation, and the fields it could not fill."""
    user, everything = conversation_text(messages)
    if _kind(schema) != "object":
        return None, ["(root)"]
    return _fill_object(schema, user, everything, now, 0, "")


def refusal_text(fields: list[str], user_text: str) -> str:
    from .simulator.text import language

    if any(field.startswith("(") for field in fields):  # the root, a value or a call refused
        if language(user_text) == "zh":
            return "对话里的信息填不出符合这个 schema 的值，我不编造，所以不按这个格式作答。"
        return (
            "The conversation does not give a value that fits this schema; I will not invent one."
        )
    names = "、".join(fields) if language(user_text) == "zh" else ", ".join(fields)
    if language(user_text) == "zh":
        return f"对话里没有给出 {names}，我不编造这些值，所以不按这个格式作答。"
    return (
        f"The conversation does not give {names}; I will not invent them, so I cannot answer in"
        " this format."
    )


def _example_schema(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A schema read from the first JSON object example in the prompt (JSON mode has no schema)."""
    from ...parsing import extract_json

    for message in messages:
        if message.get("role") not in ("system", "developer", "user"):
            continue
        try:
            example = extract_json(message_text(message))
        except ValueError:
            continue
        if isinstance(example, dict) and example:
            kinds = {str: "string", bool: "boolean", int: "integer", float: "number", list: "array"}
            return {
                "type": "object",
                "properties": {
                    str(k): {"type": [kinds.get(type(v), "string"), "null"]}
                    for k, v in example.items()
                },
                "required": [str(k) for k in example],
            }
    return None


def _object_in(text: str | None) -> dict[str, Any] | None:
    from ...parsing import extract_json

    try:
        value = extract_json(text or "")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# ---------------------------------------------------------------------------------------------
# What the server calls
# ---------------------------------------------------------------------------------------------


def for_backend(request: ChatRequest, structure: Structure) -> ChatRequest:
    """The request the rule engine answers: strict tools with their nullable fields optional.

    Strict mode writes an optional field as required and nullable; a model reads that as "give
    null when you do not know", where the rule engine would otherwise stop to ask for it.
    """
    if not structure.strict_tools:
        return request
    tools = copy.deepcopy(request.tools or [])
    for tool in tools:
        function = tool.get("function") or {}
        if function.get("name") in structure.strict_tools:
            function["parameters"] = _relaxed(function.get("parameters") or {})
    changed = copy.copy(request)
    changed.tools = tools
    return changed


def conform_arguments(arguments: str, schema: dict[str, Any]) -> str | None:
    """A strict tool's arguments made valid: unknown keys dropped, nullable fields not given as
    ``null``; ``None`` when they cannot be (not JSON, or a value the schema refuses)."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    properties = schema.get("properties") or {}
    fixed = {k: v for k, v in value.items() if k in properties}
    for key in schema.get("required") or []:
        if key not in fixed and isinstance(properties.get(key), dict) and nullable(properties[key]):
            fixed[key] = None
    if Draft202012Validator(schema).is_valid(fixed):
        return json.dumps(fixed, ensure_ascii=False)
    return None


def _refused(completion: Completion, request: ChatRequest, missing: list[str]) -> StructuredReply:
    user, _ = conversation_text(request.messages)
    refusal = refusal_text(missing, user)
    empty = Completion(
        content=None,
        finish_reason="stop",
        prompt_tokens=completion.prompt_tokens,
        completion_tokens=estimate_tokens(refusal),
    )
    return StructuredReply(empty, refusal)


def shape_reply(
    completion: Completion,
    request: ChatRequest,
    structure: Structure,
    now: datetime,
    *,
    fill_content: bool = True,
) -> StructuredReply:
    """The backend's completion made to obey the request's structure (see the module docstring).

    ``fill_content=False`` for a backend that constrains its own decoding (the local model): its
    content is kept, only strict tool calls are conformed.
    """
    calls = []
    for call in completion.tool_calls:
        function = call.get("function") or {}
        schema = structure.strict_tools.get(str(function.get("name")))
        if schema is not None:
            arguments = conform_arguments(str(function.get("arguments") or "{}"), schema)
            if arguments is None:  # strict: never arguments that do not validate
                return _refused(completion, request, [f"({function.get('name')})"])
            call = {**call, "function": {**function, "arguments": arguments}}
        calls.append(call)
    completion = Completion(
        content=completion.content,
        tool_calls=calls,
        finish_reason=completion.finish_reason,
        prompt_tokens=completion.prompt_tokens,
        completion_tokens=completion.completion_tokens,
    )
    if structure.kind == "text" or calls or not fill_content:
        return StructuredReply(completion)

    value: Any = None
    missing: list[str] = []
    if structure.kind == "json_schema" and structure.schema is not None:
        value, missing = fill_schema(structure.schema, request.messages, now)
        if not missing and not Draft202012Validator(structure.schema).is_valid(value):
            missing = ["(schema)"]
    else:  # json_object
        value = _object_in(completion.content)
        if value is None:
            example = _example_schema(request.messages)
            if example is not None:
                value, _ = fill_schema(example, request.messages, now)
            else:
                value = {"reply": completion.content or ""}
    if missing:
        return _refused(completion, request, missing)
    content = json.dumps(value, ensure_ascii=False)
    return StructuredReply(
        Completion(
            content=content,
            finish_reason="stop",
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=estimate_tokens(content),
        )
    )


__all__ = [
    "Structure",
    "StructuredReply",
    "conform_arguments",
    "fill_schema",
    "for_backend",
    "mentions_json",
    "read_structure",
    "shape_reply",
    "strict_problem",
]
