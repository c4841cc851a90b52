"""Step 3: read the tool call out of the first block that is one — and the entry points
``parse_tool_call(s)``.

Left out: checking the arguments against the schema and that the tool exists (``tools`` does both).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ..jsontext import describe_json_error, json_type_zh
from ..messages import ToolCall
from .blocks import _WRAPPERS, JsonBlock, _strip_reasoning, find_json_blocks
from .react import _react_route, parse_react
from .repair import _loads, _loads_lenient, _reason, repair_json
from .results import (
    _FINAL_ANSWER_NAMES,
    ARGUMENT_KEYS,
    MAX_BLOCKS,
    NAME_KEYS,
    ParseError,
    _error,
    _Failure,
)

# --------------------------------------------------------------------------------------------
# Step 3: read the call
# --------------------------------------------------------------------------------------------


def _syntax_failure(block_text: str) -> _Failure:
    repaired = repair_json(block_text)
    try:
        _loads(repaired)
    except json.JSONDecodeError as exc:
        reason = describe_json_error(exc)
        near = repaired[max(0, exc.pos - 12) : exc.pos + 12].replace("\n", " ")
        return _Failure(
            f"JSON 格式错误（{reason}，位置在“{near}”附近）",
            f"修补后仍不是合法的 JSON：{reason}，在修补后的块里第 {exc.pos + 1} 个字符",
        )
    except ValueError as exc:
        reason = _reason(exc)
        return _Failure(f"JSON 格式错误（{reason}）", f"修补后仍不是合法的 JSON：{reason}")
    return _Failure(
        "JSON 格式错误", "不是合法的 JSON"
    )  # not reached: callers only ask after a failure


_TRUNCATED = _Failure(
    "JSON 不完整，括号没有闭合（输出可能被截断了）",
    "JSON 块一直没有闭合：输出被截断，或者少了右括号",
)


def _coerce_arguments(value: Any) -> dict[str, Any] | _Failure:
    if isinstance(value, dict):
        return value
    if value is None:
        return {}
    if isinstance(value, str):
        if not value.strip():
            return {}
        try:
            decoded = _loads_lenient(value.strip())
        except ValueError:
            return _Failure(
                "arguments 是一个字符串，但里面不是合法的 JSON",
                "arguments 是字符串，解码后不是 JSON",
            )
        if isinstance(decoded, dict):
            return decoded
        return _Failure(
            f"arguments 解码后是{json_type_zh(decoded)}，应该是 JSON 对象",
            f"arguments 是字符串，里面装的是{json_type_zh(decoded)}，不是对象",
        )
    return _Failure(
        f"arguments 应该是 JSON 对象，而不是{json_type_zh(value)}",
        f"arguments 是{json_type_zh(value)}，不是对象",
    )


class _NotACall(NamedTuple):
    final_answer: bool = False  # a {"action": "Final Answer", ...} object


def _interpret(value: Any, depth: int = 0) -> list[ToolCall] | _Failure | _NotACall:
    """The tool calls a decoded JSON value stands for."""
    if depth > 3:
        return _NotACall()
    if isinstance(value, list):
        calls: list[ToolCall] = []
        for item in value[:MAX_BLOCKS]:
            result = _interpret(item, depth + 1)
            if isinstance(result, _Failure):
                return result
            if isinstance(result, list):
                calls.extend(result)
        return calls or _NotACall()
    if not isinstance(value, dict):
        return _NotACall()
    if isinstance(value.get("tool_calls"), list):  # a whole OpenAI assistant message
        return _interpret(value["tool_calls"], depth + 1)
    if isinstance(
        value.get("function"), dict
    ):  # OpenAI shape: {"type": "function", "function": {...}}
        return _interpret(value["function"], depth + 1)
    name = next(
        (value[key] for key in NAME_KEYS if isinstance(value.get(key), str) and value[key].strip()),
        None,
    )
    argument_key = next((key for key in ARGUMENT_KEYS if key in value), None)
    if name is None:
        if argument_key is not None:
            return _Failure("JSON 对象里缺少工具名（name 字段）", "对象里有参数，却没有工具名")
        return _NotACall()
    name = name.strip().strip("`'\" ")
    if name.lower() in _FINAL_ANSWER_NAMES:
        return _NotACall(final_answer=True)
    if not name:
        return _Failure("工具名（name 字段）是空的", "工具名为空")
    arguments = _coerce_arguments(value.get(argument_key) if argument_key else None)
    if isinstance(arguments, _Failure):
        return arguments
    if arguments.get("type") == "object" and isinstance(arguments.get("properties"), dict):
        return _Failure(
            "你输出的是工具的定义（参数的 JSON Schema），而不是一次调用；arguments "
            "里应该填参数的具体取值",
            f"模型照抄了工具 {name!r} 的参数 schema，而不是调用它",
        )
    return [ToolCall.from_arguments(name, arguments)]


_CALL_WORDS = tuple(dict.fromkeys(NAME_KEYS + ARGUMENT_KEYS))


def _is_only_json(text: str, blocks: list[JsonBlock]) -> bool:
    """True when the reply is nothing but its JSON (give or take code fences and tool-call tags)."""
    rest: list[str] = []
    position = 0
    for block in blocks:
        if block.start >= position:
            rest.append(text[position : block.start])
            position = block.end
    rest.append(text[position:])
    leftover = "".join(rest)
    for wrapper in _WRAPPERS:
        leftover = leftover.replace(wrapper, "")
    return not leftover.strip()


def _looks_like_attempt(block_text: str, only_json: bool) -> bool:
    """Does a block that failed to parse look like a tool call the model tried to write?"""
    if not any(quote in block_text for quote in "\"'“”‘’") or not any(
        colon in block_text for colon in ":："
    ):
        return False
    return only_json or any(word in block_text.lower() for word in _CALL_WORDS)


def _located(failure: _Failure, start: int, length: int) -> _Failure:
    """The failure with where its block starts in the reply (1-based, as a person counts), for the
    log.
    """
    return failure._replace(
        detail=(
            f"{failure.detail}；出错的 JSON 块从回复的第 {start + 1} 个字符开始（回复共 {length}"
            " 个字符）"
        )
    )


def _calls_in_json(
    text: str, *, first_only: bool, offset: int = 0
) -> list[ToolCall] | _Failure | None:
    """The calls in the JSON blocks of ``text``; a failure's detail says where its block starts,
    counting ``offset`` characters before ``text`` (a reasoning section that was cut off the reply).
    """
    blocks = find_json_blocks(text)[:MAX_BLOCKS]
    only_json = _is_only_json(text, blocks)
    calls: list[ToolCall] = []
    call_starts: list[int] = []
    failures: list[tuple[int, _Failure]] = []
    unclosed: list[JsonBlock] = []
    for block in blocks:
        if not block.closed:
            if _looks_like_attempt(block.text, only_json):
                unclosed.append(block)
            continue
        try:
            value = _loads_lenient(block.text)
        except ValueError:
            if _looks_like_attempt(block.text, only_json):
                failures.append((block.start, _syntax_failure(block.text)))
            continue
        result = _interpret(value)
        if isinstance(result, list):
            calls.extend(result)
            call_starts.append(block.start)
            if first_only:
                return calls[:1]
        elif isinstance(result, _Failure):
            failures.append((block.start, result))
        elif not result.final_answer and only_json and isinstance(value, dict):
            failures.append(
                (
                    block.start,
                    _Failure(
                        "JSON 对象里缺少工具名（name 字段）", "回复是一个没有工具名的 JSON 对象"
                    ),
                )
            )
    # A block that never closes is an error, unless a complete call was found inside it
    # (then it was a stray bracket in the prose before the call).
    for block in unclosed:
        if not any(start > block.start for start in call_starts):
            failures.append((block.start, _TRUNCATED))
    if failures and (not first_only or not calls):
        start, failure = min(failures, key=lambda item: item[0])
        return _located(failure, offset + start, offset + len(text))
    return calls or None  # None also covers {"action": "Final Answer", ...}: an answer, not a call


# --------------------------------------------------------------------------------------------
# The entry points
# --------------------------------------------------------------------------------------------


def parse_tool_call(text: str) -> ToolCall | ParseError | None:
    """The first tool call in a model's reply; ``None`` if the reply does not try to call a tool.

    ``ParseError`` when it tries and fails (broken or truncated JSON, no tool name, arguments
    that are not an object); its ``message`` can be sent straight back to the model. Never raises
    on any string, and runs in time linear in the length of the text.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_tool_call 需要回复的文字（str），收到的是 {type(text).__name__}")
    body = _strip_reasoning(text)
    if _react_route(body):
        step = parse_react(text)
        return step if isinstance(step, ParseError) else step.tool_call
    result = _calls_in_json(body, first_only=True, offset=len(text) - len(body))
    if isinstance(result, _Failure):
        return _error(result, text)
    return result[0] if result else None


def parse_tool_calls(text: str) -> list[ToolCall] | ParseError:
    """Every tool call in a model's reply (several objects, several <tool_call> tags, a JSON list).

    ``[]`` for a reply that makes no attempt at a call; ``ParseError`` if any attempted call is
    broken -- running some calls of a reply and silently dropping another would be worse.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_tool_calls 需要回复的文字（str），收到的是 {type(text).__name__}")
    body = _strip_reasoning(text)
    if _react_route(body):
        step = parse_react(text)
        if isinstance(step, ParseError):
            return step
        return [step.tool_call] if step.tool_call else []
    result = _calls_in_json(body, first_only=False, offset=len(text) - len(body))
    if isinstance(result, _Failure):
        return _error(result, text)
    return result or []
