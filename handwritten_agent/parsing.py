"""Tool calls recovered from a model's text: find the JSON, repair it, read the call out of it.

Without native tool calling (Day 2) a model "calls" a tool by writing JSON into its reply, and real
models write it messily: inside a code fence, after a sentence of prose, with a trailing comma,
single quotes, full-width punctuation from a Chinese keyboard (，：“”｛｝), Python's True/None, the
arguments double-encoded as a string, under other key names (tool_name, args, parameters, ...), in
OpenAI's {"function": {...}} shape, in Qwen's <tool_call> tags, or as a ReAct "Action:" block. This
module turns all of that into a ``ToolCall`` (``types.ToolCall`` with ``id == ""``: text carries no id), or into a ``ParseError`` whose
``message`` is written for the model, so the agent can send it back and ask for a corrected reply.

How it works, in three steps that the Day 2 notebook shows one at a time:

1. ``find_json_blocks`` scans the text once, counting brackets (and ignoring brackets inside
   strings), and returns every top-level ``{...}`` / ``[...]`` block, plus a block that is never
   closed (truncated output).
2. ``repair_json`` applies small, string-aware repairs, each its own function (see ``REPAIRS``):
   comments, quotes, full-width punctuation, bare keys, Python literals, trailing commas. Text
   inside string values is never touched, so "北京，晴" keeps its full-width comma.
3. ``parse_tool_call`` reads the name and arguments out of the first block that is a tool call.

Every step is a linear scan with no backtracking-prone regular expression, and nothing is ever
evaluated as code (no ``eval``, no ``ast.literal_eval``): the only decoder is ``json.loads``.

Left out on purpose: checking the arguments against the tool's JSON Schema and checking that the
tool exists (``handwritten_agent.tools`` does both); guessing at truncated output (a block that is
never closed is an error, so the model is asked again rather than a half call being run); and
pythonic call syntax such as ``get_weather(city="北京")``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from .jsontext import describe_json_error, json_type_zh, loads_bounded, MAX_JSON_DEPTH
from .messages import ToolCall
from .text import shorten

NAME_KEYS = ("name", "tool_name", "tool", "function", "action")
"""Keys a model may use for the tool's name, in the order they are tried."""

ARGUMENT_KEYS = ("arguments", "args", "parameters", "params", "input", "action_input", "tool_input")
"""Keys a model may use for the arguments, in the order they are tried."""

MAX_BLOCKS = 64
"""At most this many JSON blocks of one reply are examined (a bound, so huge inputs stay fast)."""

MAX_DEPTH = MAX_JSON_DEPTH
"""Deeper JSON is refused, the same on every Python version (no tool call nests anywhere near this)."""

_FINAL_ANSWER_NAMES = {"final answer", "final_answer", "finalanswer"}


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ParseError:
    """Why a reply that tried to call a tool could not be read.

    ``message`` is for the model (says what was wrong and what to send instead), ready to be sent
    back as the next user message; ``detail`` is the technical reason for logs (positions, which
    check failed); ``raw`` is the text. Both are Chinese: learners read logs too.
    """

    message: str
    detail: str
    raw: str


@dataclass(frozen=True)
class ReActStep:
    """One model turn in the text ReAct format, cut before any "Observation:" the model wrote."""

    thought: str | None = None
    action: str | None = None
    action_input: dict[str, Any] | None = None
    final_answer: str | None = None

    @property
    def tool_call(self) -> ToolCall | None:
        """The action as a ``ToolCall``, or None when this step is a final answer (or neither)."""
        if self.action is None:
            return None
        return ToolCall.from_arguments(self.action, dict(self.action_input or {}))


class _Failure(NamedTuple):
    reason: str  # for the model
    detail: str  # for logs: the technical reason


def _error(failure: _Failure, raw: str, *, react: bool = False) -> ParseError:
    if react:
        ask = '请在 Action Input 后面只写一个合法的 JSON 对象，例如 {"参数名": "参数值"}'
    else:
        ask = '请只输出一个合法的 JSON 对象，例如 {"name": "工具名", "arguments": {…}}'
    return ParseError(message=f"你上次返回的工具参数无法解析：{failure.reason}，{ask}", detail=failure.detail, raw=raw)


# --------------------------------------------------------------------------------------------
# Strings: where they start and end (shared by steps 1 and 2)
# --------------------------------------------------------------------------------------------

_CLOSE_PATTERNS = {closers: re.compile("[" + re.escape(closers) + r"\\]") for closers in ('"', "'", "’'", "”\"")}
_FANCY_QUOTES = {"'": "'", "‘": "’'", "’": "’'", "“": "”\"", "”": "”\""}  # opener -> accepted closers
_BEFORE_VALUE = set("{[,:｛［，：")
_AFTER_VALUE = set("}],:｝］，：")


def _followed_by_structure(text: str, index: int) -> bool:
    while index < len(text) and text[index].isspace():
        index += 1
    return index == len(text) or text[index] in _AFTER_VALUE


def _string_close(text: str, start: int, closers: str, lenient: bool) -> int:
    """Index of the quote closing the string that opens at ``start``, or -1 if it never closes.

    A standard string closes at the first unescaped ``"``. A ``lenient`` one (quoted with ' ‘ ’ “ ”)
    closes only at a closer followed by } ] , : or the end, so "it's" does not end at its apostrophe.
    """
    pattern = _CLOSE_PATTERNS[closers]
    index = start + 1
    while True:
        match = pattern.search(text, index)
        if match is None:
            return -1
        pos = match.start()
        if text[pos] == "\\":
            index = pos + 2  # skip the escaped character
        elif not lenient or _followed_by_structure(text, pos + 1):
            return pos
        else:
            index = pos + 1


def _string_end(text: str, start: int) -> int:
    """Index just past the double-quoted string opening at ``start`` (len(text) if unterminated)."""
    close = _string_close(text, start, '"', lenient=False)
    return len(text) if close < 0 else close + 1


# --------------------------------------------------------------------------------------------
# Step 1: find the JSON blocks
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class JsonBlock:
    """A ``{...}`` or ``[...]`` region of the text; ``closed`` is False when it runs off the end."""

    start: int
    end: int
    closed: bool
    text: str


_OPENERS = {"{": "}", "｛": "}", "[": "]", "［": "]"}
_CLOSERS = {"}": "}", "｝": "}", "]": "]", "］": "]"}
_SCAN = re.compile("[][{}｛｝［］\"'‘’“”]")  # a character class: matched one character at a time


def _previous_non_space(text: str, index: int) -> str:
    index -= 1
    while index >= 0 and text[index].isspace():
        index -= 1
    return text[index] if index >= 0 else ""


def find_json_blocks(text: str) -> list[JsonBlock]:
    """Every top-level JSON-looking block of ``text``, in order of position.

    One pass counts brackets on a stack. Brackets inside strings are skipped; strings are found
    with the same rules the repairs use (see ``normalize_quotes``), and only inside a block, so an
    apostrophe or a quote in the surrounding prose is harmless. A block that opens and never
    closes -- truncated output -- is returned with ``closed=False``; the complete blocks inside it
    are returned too, so a stray "{" in prose does not hide the call that follows it.
    """
    stack: list[tuple[int, str]] = []  # (position of the opener, the closer it needs)
    closed: list[tuple[int, int, int | None]] = []  # (start, end, position of the enclosing opener)
    unclosable: dict[str, int] = {}  # closers -> a position after which no lenient string closes
    skip_until = -1
    for match in _SCAN.finditer(text):
        pos = match.start()
        if pos < skip_until:
            continue
        char = text[pos]
        if not stack:  # in prose: only an opener matters
            if char in _OPENERS:
                stack.append((pos, _OPENERS[char]))
            continue
        if char == '"':
            close = _string_close(text, pos, '"', lenient=False)
            if close < 0:
                break  # the string runs to the end: the block is unclosed
            skip_until = close + 1
        elif char in _FANCY_QUOTES:
            closers = _FANCY_QUOTES[char]
            if _previous_non_space(text, pos) not in _BEFORE_VALUE or unclosable.get(closers, len(text)) <= pos:
                continue  # an apostrophe, or a string we already know never closes
            close = _string_close(text, pos, closers, lenient=True)
            if close < 0:
                unclosable[closers] = pos  # any later string of this kind fails too: keeps the scan linear
            else:
                skip_until = close + 1
        elif char in _OPENERS:
            stack.append((pos, _OPENERS[char]))
        elif stack[-1][1] == _CLOSERS[char]:  # a mismatched closer is ignored
            start, _ = stack.pop()
            closed.append((start, pos + 1, stack[-1][0] if stack else None))
    never_closed = {position for position, _ in stack}
    blocks = [JsonBlock(start, end, True, text[start:end]) for start, end, parent in closed
              if parent is None or parent in never_closed]
    if stack:
        start = stack[0][0]
        blocks.append(JsonBlock(start, len(text), False, text[start:]))
    blocks.sort(key=lambda block: block.start)
    return blocks


# --------------------------------------------------------------------------------------------
# Step 2: repair
# --------------------------------------------------------------------------------------------

def _outside_strings(text: str, change: Callable[[str], str]) -> str:
    """Apply ``change`` to the parts of ``text`` that are not inside double-quoted strings."""
    parts: list[str] = []
    index = 0
    while index < len(text):
        quote = text.find('"', index)
        if quote < 0:
            parts.append(change(text[index:]))
            break
        parts.append(change(text[index:quote]))
        end = _string_end(text, quote)
        parts.append(text[quote:end])
        index = end
    return "".join(parts)


_LEX_START = re.compile("[\"'‘’“”/#]")


def _lex(text: str) -> list[tuple[str, str, bool]]:
    """Split JSON-like text into ``(kind, raw text, closed)`` segments: "code", "string" or "comment".

    Strings may be quoted with " ' ‘’ or “”. A quote other than " opens a string only where a
    key or value can start (after { [ , : or at the beginning): elsewhere it is an apostrophe.
    """
    segments: list[tuple[str, str, bool]] = []
    last = ""  # the last non-space character of code seen so far
    code_start = index = 0
    while True:
        match = _LEX_START.search(text, index)
        if match is None:
            break
        pos = match.start()
        char = text[pos]
        before = text[index:pos].rstrip()
        if before:
            last = before[-1]
        if char == "#" or text.startswith("//", pos) or text.startswith("/*", pos):
            if text.startswith("/*", pos):
                close = text.find("*/", pos + 2)
                end = len(text) if close < 0 else close + 2
            else:
                newline = text.find("\n", pos)
                end = len(text) if newline < 0 else newline
            kind, closed = "comment", True
        elif char == '"' or (char in _FANCY_QUOTES and (last == "" or last in _BEFORE_VALUE)):
            closers = '"' if char == '"' else _FANCY_QUOTES[char]
            close = _string_close(text, pos, closers, lenient=char != '"')
            end = len(text) if close < 0 else close + 1
            kind, closed = "string", close >= 0
            last = '"'
        else:  # a lone "/" or an apostrophe inside a word
            last = char
            index = pos + 1
            continue
        if code_start < pos:
            segments.append(("code", text[code_start:pos], True))
        segments.append((kind, text[pos:end], closed))
        code_start = index = end
    if code_start < len(text):
        segments.append(("code", text[code_start:], True))
    return segments


def strip_comments(text: str) -> str:
    """Remove // line comments, /* block comments */ and # line comments that sit outside strings."""
    if "//" not in text and "/*" not in text and "#" not in text:
        return text
    return "".join(raw for kind, raw, _ in _lex(text) if kind != "comment")


def _requote(raw: str, closed: bool) -> str:
    opener = raw[0]
    content = raw[1:-1] if closed else raw[1:]
    if "\\" in content or (opener != '"' and '"' in content):
        parts: list[str] = []
        index = 0
        while index < len(content):
            char = content[index]
            if char == "\\" and index + 1 < len(content):
                following = content[index + 1]
                parts.append("'" if following == "'" else char + following)  # JSON has no \' escape
                index += 2
                continue
            parts.append('\\"' if char == '"' else char)
            index += 1
        content = "".join(parts)
    return '"' + content + ('"' if closed else "")


def normalize_quotes(text: str) -> str:
    """Turn strings quoted with ' ‘’ or “” into standard double-quoted JSON strings.

    A fancy quote opens a string only where a key or value can start (after { [ , : or at the
    beginning) and closes it only where one can end (before } ] , : or the end), so the apostrophe
    in 'it's' stays part of the text. Double quotes inside such a string are escaped, and ``\\'``
    (which JSON does not allow) becomes a plain '. Full-width text inside strings is kept as is.
    """
    if not any(quote in text for quote in _FANCY_QUOTES) and "\\'" not in text:
        return text
    return "".join(_requote(raw, closed) if kind == "string" else raw for kind, raw, closed in _lex(text))


_FULLWIDTH = str.maketrans({"，": ",", "：": ":", "｛": "{", "｝": "}", "［": "[", "］": "]", "\u3000": " "})


def normalize_fullwidth_punctuation(text: str) -> str:
    """Replace full-width ， ： ｛ ｝ ［ ］ and the ideographic space with their ASCII forms, outside strings."""
    return _outside_strings(text, lambda part: part.translate(_FULLWIDTH))


_BARE_KEY = re.compile(r"([{,]\s*)([^\W\d][\w-]*)(\s*:)")


def quote_bare_keys(text: str) -> str:
    """Put double quotes around unquoted keys, as in JavaScript: ``{city: "北京"}`` -> ``{"city": "北京"}``."""
    return _outside_strings(text, lambda part: _BARE_KEY.sub(r'\1"\2"\3', part))


_PYTHON_LITERALS = re.compile(r"\b(True|False|None)\b")
_JSON_LITERALS = {"True": "true", "False": "false", "None": "null"}


def replace_python_literals(text: str) -> str:
    """Replace Python's True / False / None with JSON's true / false / null, outside strings."""
    return _outside_strings(text, lambda part: _PYTHON_LITERALS.sub(lambda m: _JSON_LITERALS[m.group(1)], part))


_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def remove_trailing_commas(text: str) -> str:
    """Drop a comma that comes right before a closing } or ] (allowed in Python and JS, not in JSON)."""
    return _outside_strings(text, lambda part: _TRAILING_COMMA.sub(r"\1", part))


def collapse_doubled_braces(text: str) -> str:
    """Turn ``{{"name": …}}`` into ``{"name": …}``, as small models write after copying a template's escaped braces.

    Only a fragment that starts with ``{{`` is touched: valid JSON never does (a key must be a string).
    """
    if not text.lstrip().startswith("{{"):
        return text
    return _outside_strings(text, lambda part: part.replace("{{", "{").replace("}}", "}"))


REPAIRS: tuple[Callable[[str], str], ...] = (
    strip_comments,
    normalize_quotes,
    normalize_fullwidth_punctuation,
    collapse_doubled_braces,
    quote_bare_keys,
    replace_python_literals,
    remove_trailing_commas,
)
"""The repairs, in the order ``repair_json`` applies them: comments and quotes first, so that every later
repair only meets standard double-quoted strings."""


def repair_json(text: str) -> str:
    """Apply every repair in ``REPAIRS`` to a JSON-like fragment and return the result.

    The result is not guaranteed to be valid JSON (a missing bracket is not guessed at); pass it to
    ``json.loads`` and handle the error.
    """
    for repair in REPAIRS:
        text = repair(text)
    return text


def repair_json_steps(text: str) -> list[tuple[str, str]]:
    """The text after each repair, as ``(repair name, text)`` pairs -- to watch the repairs work."""
    steps = []
    for repair in REPAIRS:
        text = repair(text)
        steps.append((repair.__name__, text))
    return steps


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} 不是合法的 JSON（JSON 不支持 NaN 和 Infinity）")


def _reason(exc: ValueError) -> str:
    """The Chinese reason of a decoding error: ours are Chinese already, ``json``'s are translated."""
    text = str(exc)
    return text if not text.isascii() else describe_json_error(text)


def _loads(text: str) -> Any:
    return loads_bounded(text, max_depth=MAX_DEPTH, strict=False, parse_constant=_reject_constant)


def _loads_lenient(text: str) -> Any:
    """``json.loads``, and if that fails, ``json.loads`` of the repaired text (its error is raised)."""
    try:
        return _loads(text)
    except ValueError:
        return _loads(repair_json(text))


def extract_json(text: str) -> Any:
    """The first JSON value found in ``text`` (inside prose, a code fence, ...), after repair.

    Raises ``ValueError`` saying what was found when there is none.
    """
    return _first_json_value(text, find_json_blocks(text))


def _first_json_value(text: str, blocks: list[JsonBlock]) -> Any:
    first_error = ""
    for block in blocks[:MAX_BLOCKS]:
        if not block.closed:
            first_error = first_error or (f"从第 {block.start} 个字符开始的 JSON 一直没有闭合（输出被截断了？）："
                                          f"{shorten(block.text.strip(), 80, one_line=False)!r}")
            continue
        try:
            return _loads_lenient(block.text)
        except ValueError as exc:
            first_error = first_error or (f"第 {block.start} 个字符处的 JSON 修补后仍然无法解析"
                                          f"（{_reason(exc)}）")
    if not blocks:
        try:
            return _loads_lenient(text.strip())  # a bare scalar such as 42 or "text"
        except ValueError:
            pass
        raise ValueError(f"文字里没有找到 JSON 对象或数组：{shorten(text.strip(), 80, one_line=False)!r}")
    raise ValueError(first_error)


# --------------------------------------------------------------------------------------------
# Step 3: read the call
# --------------------------------------------------------------------------------------------

def _syntax_failure(block_text: str) -> _Failure:
    repaired = repair_json(block_text)
    try:
        _loads(repaired)
    except json.JSONDecodeError as exc:
        reason = describe_json_error(exc.msg)
        near = repaired[max(0, exc.pos - 12): exc.pos + 12].replace("\n", " ")
        return _Failure(f"JSON 格式错误（{reason}，位置在“{near}”附近）",
                        f"修补后仍不是合法的 JSON：{reason}（修补后文字的第 {exc.pos} 个字符）")
    except ValueError as exc:
        reason = _reason(exc)
        return _Failure(f"JSON 格式错误（{reason}）", f"修补后仍不是合法的 JSON：{reason}")
    return _Failure("JSON 格式错误", "不是合法的 JSON")  # not reached: callers only ask after a failure


_TRUNCATED = _Failure("JSON 不完整，括号没有闭合（输出可能被截断了）",
                      "JSON 块一直没有闭合：输出被截断，或者少了右括号")



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
            return _Failure("arguments 是一个字符串，但里面不是合法的 JSON",
                            "arguments 是字符串，解码后不是 JSON")
        if isinstance(decoded, dict):
            return decoded
        return _Failure(f"arguments 解码后是{json_type_zh(decoded)}，应该是 JSON 对象",
                        f"arguments 是字符串，里面装的是{json_type_zh(decoded)}，不是对象")
    return _Failure(f"arguments 应该是 JSON 对象，而不是{json_type_zh(value)}",
                    f"arguments 是{json_type_zh(value)}，不是对象")


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
    if isinstance(value.get("function"), dict):  # OpenAI shape: {"type": "function", "function": {...}}
        return _interpret(value["function"], depth + 1)
    name = next((value[key] for key in NAME_KEYS if isinstance(value.get(key), str) and value[key].strip()), None)
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
        return _Failure("你输出的是工具的定义（参数的 JSON Schema），而不是一次调用；arguments 里应该填参数的具体取值",
                        f"模型照抄了工具 {name!r} 的参数 schema，而不是调用它")
    return [ToolCall.from_arguments(name, arguments)]


_CALL_WORDS = tuple(dict.fromkeys(NAME_KEYS + ARGUMENT_KEYS))
_WRAPPERS = ("```json", "```JSON", "```", "<tool_call>", "</tool_call>", "[TOOL_CALLS]")


def _is_only_json(text: str, blocks: list[JsonBlock]) -> bool:
    """True when the reply is nothing but its JSON (give or take code fences and tool-call tags)."""
    rest: list[str] = []
    position = 0
    for block in blocks:
        if block.start >= position:
            rest.append(text[position:block.start])
            position = block.end
    rest.append(text[position:])
    leftover = "".join(rest)
    for wrapper in _WRAPPERS:
        leftover = leftover.replace(wrapper, "")
    return not leftover.strip()


def _looks_like_attempt(block_text: str, only_json: bool) -> bool:
    """Does a block that failed to parse look like a tool call the model tried to write?"""
    if not any(quote in block_text for quote in "\"'“”‘’") or not any(colon in block_text for colon in ":："):
        return False
    return only_json or any(word in block_text.lower() for word in _CALL_WORDS)


def _strip_reasoning(text: str) -> str:
    """Drop a leading <think>...</think> section: reasoning models write drafts there, not calls.

    Only a section at the very start counts (or, for chat templates that put the opening tag in the
    prompt, text up to a "</think>" at the start of a line), so "<think>" inside a JSON string
    value is left alone.
    """
    stripped = text.lstrip()
    if stripped.startswith("<think>"):
        end = stripped.find("</think>")
        return "" if end < 0 else stripped[end + len("</think>"):]
    if text.startswith("</think>"):
        return text[len("</think>"):]
    end = text.find("\n</think>")
    return text if end < 0 else text[end + len("\n</think>"):]


def _calls_in_json(text: str, *, first_only: bool) -> list[ToolCall] | _Failure | None:
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
            failures.append((block.start, _Failure("JSON 对象里缺少工具名（name 字段）",
                                                   "回复是一个没有工具名的 JSON 对象")))
    # A block that never closes is an error, unless a complete call was found inside it
    # (then it was a stray bracket in the prose before the call).
    for block in unclosed:
        if not any(start > block.start for start in call_starts):
            failures.append((block.start, _TRUNCATED))
    if failures and (not first_only or not calls):
        return min(failures, key=lambda item: item[0])[1]
    return calls or None  # None also covers {"action": "Final Answer", ...}: an answer, not a call


# --------------------------------------------------------------------------------------------
# The text ReAct format
# --------------------------------------------------------------------------------------------

_REACT_LABELS = {
    "thought": "thought", "思考": "thought",
    "action": "action", "行动": "action",
    "actioninput": "action_input", "行动输入": "action_input",
    "observation": "observation", "观察": "observation",
    "finalanswer": "final_answer", "最终答案": "final_answer",
}


def _react_label(line: str) -> tuple[str, str] | None:
    """``("action", "calculate")`` for a line like ``Action: calculate``; None for other lines."""
    stripped = line.lstrip(" \t*#>-`")
    colons = [index for index in (stripped.find(":", 0, 24), stripped.find("：", 0, 24)) if index >= 0]
    if not colons:
        return None
    colon = min(colons)
    key = stripped[:colon].replace("*", "").replace(" ", "").replace("_", "").lower()
    label = _REACT_LABELS.get(key)
    if label is None:
        return None
    return label, stripped[colon + 1:].lstrip("* \t")


def _clean_action_name(text: str) -> str:
    name = text.strip().splitlines()[0] if text.strip() else ""
    return name.strip().strip("[]`'\"“”。.").strip()


_NO_INPUT = {"", "{}", "无", "none", "null", "n/a"}
_NO_ACTION = {"none", "null", "n/a", "无", "不需要", "无需工具"}


def parse_react(text: str) -> ReActStep | ParseError:
    """Read one ReAct turn: Thought, then either Action + Action Input or Final Answer.

    Labels are matched at the start of a line, case-insensitively, with an ASCII or full-width
    colon, also in bold (``**Action:**``) or in Chinese (思考 / 行动 / 行动输入 / 最终答案). Anything
    from an "Observation:" line on is dropped: the model must not write the tool's result itself.
    Whichever of Action and Final Answer comes first wins. A missing Action Input means ``{}``
    (schema validation will complain if the tool needs arguments); an Action Input that is not a
    JSON object is a ``ParseError``. "Action: None" (written by some models before a Final
    Answer) is not an action.
    """
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in _strip_reasoning(text).splitlines():
        labelled = _react_label(line)
        if labelled is not None:
            label, rest = labelled
            if label == "observation":
                break
            sections.append((label, [rest]))
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)

    def joined(lines: list[str]) -> str:
        return "\n".join(lines).strip()

    thoughts = [joined(lines) for label, lines in sections if label == "thought"]
    thought = thoughts[0] if thoughts else (joined(preamble) or None)
    for index, (label, lines) in enumerate(sections):
        if label == "final_answer":
            return ReActStep(thought=thought, final_answer=joined(lines))
        if label != "action":
            continue
        action_text = joined(lines)
        inline_input = ""
        brace = action_text.find("{")
        if brace >= 0:  # "Action: calculate {"expression": "1+2"}" on one line
            action_text, inline_input = action_text[:brace], action_text[brace:]
        name = _clean_action_name(action_text)
        if name.lower() in _NO_ACTION:
            continue
        if not name:
            return _error(_Failure("Action 后面没有写工具名", "ReAct 的 Action 行没有工具名"), text, react=True)
        following = sections[index + 1] if index + 1 < len(sections) else None
        input_text = inline_input or (joined(following[1]) if following and following[0] == "action_input" else "")
        arguments = _react_input(input_text)
        if isinstance(arguments, _Failure):
            return _error(arguments, text, react=True)
        return ReActStep(thought=thought, action=name, action_input=arguments)
    return ReActStep(thought=thought)


def _react_input(text: str) -> dict[str, Any] | _Failure:
    for wrapper in _WRAPPERS:
        text = text.replace(wrapper, "")
    text = text.strip()
    if text.lower() in _NO_INPUT:
        return {}
    if text[:1] == '"':  # the object double-encoded as a JSON string, as JSON mode also accepts
        try:
            decoded = json.loads(text)
        except ValueError:
            decoded = None
        if isinstance(decoded, str):
            text = decoded.strip()
    blocks = find_json_blocks(text)
    try:
        value = _first_json_value(text, blocks)
    except ValueError as exc:
        if not blocks:
            reason = "Action Input 应该是一个用 {} 括起来的 JSON 对象"
        elif any(not block.closed for block in blocks):
            reason = "Action Input 的 JSON 不完整，括号没有闭合"
        else:
            reason = "Action Input 不是合法的 JSON"
        return _Failure(reason, f"ReAct 的 Action Input 不是 JSON 对象：{exc}")
    if not isinstance(value, dict):
        return _Failure(f"Action Input 应该是 JSON 对象，而你写的是{json_type_zh(value)}",
                        f"ReAct 的 Action Input 是{json_type_zh(value)}，不是对象")
    return value


def _react_route(text: str) -> bool:
    """Does the text use the ReAct format (an Action or Final Answer line)?"""
    for line in text.splitlines():
        labelled = _react_label(line)
        if labelled is not None and labelled[0] in ("action", "final_answer"):
            return True
    return False


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
    result = _calls_in_json(body, first_only=True)
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
    result = _calls_in_json(body, first_only=False)
    if isinstance(result, _Failure):
        return _error(result, text)
    return result or []
