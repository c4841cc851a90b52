"""Request validation for the OpenAI-compatible server: a decoded JSON body in, a ``ChatRequest``
out.

Each check raises ``BackendError(400, ...)`` with the message, ``param`` and ``code`` the real API
gives for the same mistake, so a learner who sends a bad request here sees what a provider would
say (in English, as the provider says it). Where no provider has a wording (``n`` other than 1,
which only this server refuses) the message is the course's own, in Chinese. ``parse_request`` is
the one entry point; the server calls it before any backend runs.

Covered: the mistakes an agent author makes — message roles, content types, assistant
``tool_calls`` (arguments as a JSON *string*), tool messages that answer the calls just before them,
tool schemas and names, ``tool_choice``, ``stop``, ``n``, the scalar options' types, and the
simulator's model-name options (``course-sim:slow``). Left out: every other field of the real API
(they pass through untouched in ``ChatRequest.extra``), value ranges such as ``temperature <= 2``,
and anything about the response (``encoding``) or HTTP (``server``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...jsontext import loads_bounded
from ...messages import find_pairing_problems
from .backend import BackendError, ChatRequest
from .faults import SIMULATOR_MODEL, split_model_name, validate_options

VALID_ROLES = ("system", "developer", "user", "assistant", "tool")
TOOL_NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
TOOL_CHOICE_STRINGS = ("none", "auto", "required")
# Body fields that become ChatRequest attributes; every other field goes into ChatRequest.extra.
KNOWN_FIELDS = {
    "model",
    "messages",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "stream",
    "stop",
    "max_tokens",
    "max_completion_tokens",
    "temperature",
    "n",
    "stream_options",
}


def bad_request(message: str, param: str | None = None, code: str | None = None) -> BackendError:
    return BackendError(400, message, type="invalid_request_error", param=param, code=code)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a decimal",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _invalid_type(param: str, expected: str, value: Any) -> BackendError:
    return bad_request(
        f"Invalid type for '{param}': expected {expected}, but got {_type_name(value)} instead.",
        param=param,
        code="invalid_type",
    )


def _missing(param: str) -> BackendError:
    return bad_request(
        f"Missing required parameter: '{param}'.", param=param, code="missing_required_parameter"
    )


def _validate_messages(messages: Any) -> list[dict[str, Any]]:
    if messages is None:
        raise _missing("messages")
    if not isinstance(messages, list):
        raise _invalid_type("messages", "an array of objects", messages)
    if not messages:
        raise bad_request(
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an"
            " empty array instead.",
            param="messages",
            code="empty_array",
        )
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise _invalid_type(f"messages[{i}]", "an object", message)
        role = message.get("role")
        if role is None:
            raise _missing(f"messages[{i}].role")
        if role not in VALID_ROLES:
            supported = ", ".join(f"'{r}'" for r in VALID_ROLES[:-1]) + f", and '{VALID_ROLES[-1]}'"
            raise bad_request(
                f"Invalid value: '{role}'. Supported values are: {supported}.",
                param=f"messages[{i}].role",
                code="invalid_value",
            )
        content = message.get("content")
        if role != "assistant" and content is None:
            raise _missing(f"messages[{i}].content")
        if content is not None and not isinstance(content, (str, list)):
            raise _invalid_type(
                f"messages[{i}].content", "one of a string or array of objects", content
            )
        if role == "assistant":
            _validate_assistant_tool_calls(i, message.get("tool_calls"))
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id is None:
                raise _missing(f"messages[{i}].tool_call_id")
            if not isinstance(call_id, str):
                raise _invalid_type(f"messages[{i}].tool_call_id", "a string", call_id)
    _validate_tool_pairing(messages)
    return messages


def _validate_assistant_tool_calls(i: int, tool_calls: Any) -> None:
    if tool_calls is None:
        return
    if not isinstance(tool_calls, list):
        raise _invalid_type(f"messages[{i}].tool_calls", "an array of objects", tool_calls)
    if not tool_calls:  # the real API rejects "tool_calls": [] - omit the key when there are none
        raise bad_request(
            f"Invalid 'messages[{i}].tool_calls': empty array. Expected an array with minimum"
            " length 1, but got an empty array instead.",
            param=f"messages[{i}].tool_calls",
            code="empty_array",
        )
    for j, call in enumerate(tool_calls):
        where = f"messages[{i}].tool_calls[{j}]"
        if not isinstance(call, dict):
            raise _invalid_type(where, "an object", call)
        if call.get("id") is None:
            raise _missing(f"{where}.id")
        if not isinstance(call["id"], str):
            raise _invalid_type(f"{where}.id", "a string", call["id"])
        if call.get("type") is None:
            raise _missing(f"{where}.type")
        if call["type"] != "function":
            raise bad_request(
                f"Invalid value: '{call['type']}'. Supported values are: 'function'.",
                param=f"{where}.type",
                code="invalid_value",
            )
        function = call.get("function")
        if function is None:
            raise _missing(f"{where}.function")
        if not isinstance(function, dict):
            raise _invalid_type(f"{where}.function", "an object", function)
        if not isinstance(function.get("name"), str):
            raise (
                _missing(f"{where}.function.name")
                if function.get("name") is None
                else _invalid_type(f"{where}.function.name", "a string", function["name"])
            )
        arguments = function.get("arguments")
        if arguments is None:
            raise _missing(f"{where}.function.arguments")
        if not isinstance(arguments, str):
            # A classic mistake: echoing parsed arguments (a dict) instead of the raw JSON text.
            raise _invalid_type(f"{where}.function.arguments", "a string", arguments)


def _validate_tool_pairing(messages: list[dict[str, Any]]) -> None:
    """Every tool message answers the assistant tool calls just before it, and every call gets an
    answer (``messages.find_pairing_problems``); the first problem is refused with the real API's
    wording."""
    for problem in find_pairing_problems(messages):
        if problem.kind == "orphan":
            raise bad_request(
                "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                "message with 'tool_calls'.",
                param=f"messages.[{problem.index}].role",
            )
        if problem.kind == "unknown":
            raise bad_request(
                f"Invalid parameter: 'tool_call_id' of '{problem.ids[0]}' not found in 'tool_calls'"
                " of previous message.",  # the real API's words; it names no param for this one
            )
        raise bad_request(
            "An assistant message with 'tool_calls' must be followed by tool messages responding"
            " to each 'tool_call_id'. The following tool_call_ids did not have response messages:"
            f" {', '.join(sorted(problem.ids))}",
            param=f"messages.[{problem.index}].role",
        )


def _validate_tools(tools: Any) -> list[dict[str, Any]] | None:
    if tools is None:
        return None
    if not isinstance(tools, list):
        raise _invalid_type("tools", "an array of objects", tools)
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise _invalid_type(f"tools[{i}]", "an object", tool)
        kind = tool.get("type")
        if kind is None:
            raise _missing(f"tools[{i}].type")
        if kind != "function":
            raise bad_request(
                f"Invalid value: '{kind}'. Supported values are: 'function'.",
                param=f"tools[{i}].type",
                code="invalid_value",
            )
        function = tool.get("function")
        if function is None:
            raise _missing(f"tools[{i}].function")
        if not isinstance(function, dict):
            raise _invalid_type(f"tools[{i}].function", "an object", function)
        name = function.get("name")
        if name is None:
            raise _missing(f"tools[{i}].function.name")
        if not isinstance(name, str) or not TOOL_NAME_PATTERN.match(name):
            raise bad_request(
                f"Invalid 'tools[{i}].function.name': string does not match pattern. Expected a"
                " string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$' (got"
                f" {json.dumps(name, ensure_ascii=False)}).",
                param=f"tools[{i}].function.name",
                code="invalid_value",
            )
        if "description" in function and not isinstance(function["description"], str):
            raise _invalid_type(
                f"tools[{i}].function.description", "a string", function["description"]
            )
        if "parameters" in function and not isinstance(function["parameters"], dict):
            raise _invalid_type(
                f"tools[{i}].function.parameters", "an object", function["parameters"]
            )
    return tools


def _validate_tool_choice(
    choice: Any, tools: list[dict[str, Any]] | None
) -> str | dict[str, Any] | None:
    if choice is None:
        return None
    if isinstance(choice, str):
        if choice not in TOOL_CHOICE_STRINGS:
            raise bad_request(
                f"Invalid value: '{choice}'. Supported values are: 'none', 'auto', and 'required'.",
                param="tool_choice",
                code="invalid_value",
            )
        if choice == "required" and not tools:
            raise bad_request(
                "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are"
                " specified.",
                param="tool_choice",
            )
        return choice
    if not isinstance(choice, dict):
        raise _invalid_type("tool_choice", "one of a string or an object", choice)
    if choice.get("type") != "function":
        raise bad_request(
            f"Invalid value: '{choice.get('type')}'. Supported values are: 'function'.",
            param="tool_choice.type",
            code="invalid_value",
        )
    function = choice.get("function")
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise _missing("tool_choice.function.name")
    if not tools:
        raise bad_request(
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are"
            " specified.",
            param="tool_choice",
        )
    names = [tool["function"]["name"] for tool in tools]
    if function["name"] not in names:
        raise bad_request(
            f"Invalid value for 'tool_choice': function '{function['name']}' is not among the"
            f" offered tools ({', '.join(names)}).",
            param="tool_choice",
        )
    return choice


def _validate_stop(stop: Any) -> list[str] | None:
    if stop is None:
        return None
    if isinstance(stop, str):
        return [stop] if stop else None
    if not isinstance(stop, list) or not all(isinstance(s, str) for s in stop):
        raise _invalid_type("stop", "one of a string or array of strings", stop)
    if len(stop) > 4:
        raise bad_request(
            "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an"
            f" array with length {len(stop)} instead.",
            param="stop",
            code="array_above_max_length",
        )
    return [s for s in stop if s] or None


def _optional(body: dict[str, Any], name: str, types: tuple[type, ...], expected: str) -> Any:
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise _invalid_type(name, expected, value)
    return value


def _reply_limit(body: dict[str, Any]) -> int | None:
    """``max_completion_tokens`` (the newer name) or ``max_tokens``: how many tokens the reply may
    have.
    """
    old = _optional(body, "max_tokens", (int,), "an integer")
    new = _optional(body, "max_completion_tokens", (int,), "an integer")
    if old is not None and new is not None and old != new:
        raise bad_request(
            f"max_tokens（{old}）和 max_completion_tokens（{new}）说的是同一件事（回复最多多少个 "
            "token），只传一个：新的接口和推理模型用 max_completion_tokens。",
            param="max_completion_tokens",
            code="invalid_value",
        )
    limit = new if new is not None else old
    if limit is not None and limit < 1:
        name = "max_completion_tokens" if new is not None else "max_tokens"
        raise bad_request(
            f"{name} 至少是 1（收到的是 {limit}）。", param=name, code="invalid_value"
        )
    return limit


def decode_body(raw: bytes) -> Any:
    """The request body as JSON, or the API's 400 for a body that is not JSON."""
    try:
        return loads_bounded(raw)
    except (
        ValueError,
        UnicodeDecodeError,
    ):  # JSONDecodeError is a ValueError; so is "nested too deeply"
        raise bad_request(  # OpenAI's wording, word for word
            "We could not parse the JSON body of your request. (HINT: This likely means you aren't"
            " using your HTTP library correctly. The OpenAI API expects a JSON payload, but what"
            " was sent was not valid JSON.)"
        ) from None


def parse_request(
    body: Any, backend_models: list[str], fault_header: str | None = None
) -> ChatRequest:
    """Validate a decoded request body and turn it into a ``ChatRequest`` (raises ``BackendError``
    400/404).
    """
    if not isinstance(body, dict):
        raise bad_request(f"The request body must be a JSON object, but got {_type_name(body)}.")
    model = body.get("model")
    if model is None or model == "":
        raise bad_request(
            "you must provide a model parameter", param="model", code="missing_required_parameter"
        )
    if not isinstance(model, str):
        raise _invalid_type("model", "a string", model)
    messages = _validate_messages(body.get("messages"))
    tools = _validate_tools(body.get("tools"))
    tool_choice = _validate_tool_choice(body.get("tool_choice"), tools)
    n = _optional(body, "n", (int,), "an integer")
    if n is not None and n != 1:
        raise bad_request(
            f"这个服务器每个请求只返回一个候选回复，n 只能是 1（收到的是 {n}）；需要几个回答，"
            "就把请求发几次。",
            param="n",
            code="invalid_value",
        )
    stream = _optional(body, "stream", (bool,), "a boolean")
    parallel = _optional(body, "parallel_tool_calls", (bool,), "a boolean")
    max_tokens = _reply_limit(body)
    temperature = _optional(body, "temperature", (int, float), "a decimal")
    stream_options = _optional(body, "stream_options", (dict,), "an object")
    if stream_options is not None and not stream:
        raise bad_request(
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
            param="stream_options",
        )

    base_model, options = split_model_name(model)
    if SIMULATOR_MODEL in backend_models and base_model == SIMULATOR_MODEL:
        options = validate_options(model, options, fault_header)
    elif fault_header:
        options = options | split_model_name(":" + fault_header)[1]

    extra = {key: value for key, value in body.items() if key not in KNOWN_FIELDS}
    if stream_options is not None:
        extra["stream_options"] = stream_options
    return ChatRequest(
        model=model,
        messages=messages,
        tools=tools,
        tool_choice=tool_choice,
        parallel_tool_calls=True if parallel is None else parallel,
        stream=bool(stream),
        stop=_validate_stop(body.get("stop")),
        max_tokens=max_tokens,
        temperature=None if temperature is None else float(temperature),
        base_model=base_model,
        options=options,
        extra=extra,
    )
