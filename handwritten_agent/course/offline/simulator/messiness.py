"""Tool calls written as JSON *text* the way real models write them, and read back leniently.

In prompt-JSON mode (Day 2) a model has no ``tools`` parameter: it writes its call as text, and
real models rarely write it cleanly. The simulator reproduces what they actually do, chosen by a
messiness profile in the model name (``course-sim:fenced``), so the learner's parser meets it
offline:

==============  ====================================================================================
``clean``       ``{"name": "calculate", "arguments": {"expression": "1 + 2"}}`` on one line
``fenced``      the JSON pretty-printed inside a ```json code fence
``prose``       a sentence before and a sentence after the (clean) JSON
``trailing_comma``  a comma before every closing brace: ``{"expression": "1 + 2",},}``
``fullwidth``   full-width punctuation and quotes: ``｛“name”：“calculate”，“arguments”：｛…｝｝``
``single_quotes``   Python-style quotes: ``{'name': 'calculate', 'arguments': {...}}``
``mixed``       prose + fence + trailing commas + full-width ``：`` and ``，`` (quotes stay ASCII)
==============  ====================================================================================

Only the *syntax* is messed up; string values are never altered, so a good parser recovers the
exact call. Profiles combine (``course-sim:fenced,trailing_comma``). Everything is deterministic:
the sentences of ``prose`` are picked by a hash of the call, never at random.

``truncated_json`` writes the ``malformed_json`` fault: the reply stops mid-call, as a model cut off
by its token limit does. ``loads_lenient`` reads any of the above back (the simulator uses it to
recognise its own earlier replies, and the prompt reader to read example JSON with comments and
placeholders in a system prompt). It is deliberately small and is not the course's parser: the
course teaches ``handwritten_agent.parsing``.

Left out: Python literals (``True``/``None``) in the single-quote profile, and JSON5 extras such as
hex numbers. Nothing here evaluates text as code.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

# Each profile is a set of independent syntax flags; "mixed" is several at once.
PROFILE_FLAGS: dict[str, frozenset[str]] = {
    "clean": frozenset(),
    "fenced": frozenset({"fenced"}),
    "prose": frozenset({"prose"}),
    "trailing_comma": frozenset({"trailing_comma"}),
    "fullwidth": frozenset({"fullwidth"}),
    "single_quotes": frozenset({"single_quotes"}),
    "mixed": frozenset({"prose", "fenced", "trailing_comma", "fullwidth_punctuation"}),
}

# Flags that change the JSON itself (the rest wrap it in a fence or sentences).
SYNTAX_FLAGS = frozenset({"trailing_comma", "fullwidth", "fullwidth_punctuation", "single_quotes"})


def profile_flags(options: Iterable[str]) -> frozenset[str]:
    """The syntax flags selected by model-name options; options that are not profiles are
    ignored.
    """
    flags: set[str] = set()
    for option in options:
        flags |= PROFILE_FLAGS.get(option, frozenset())
    return frozenset(flags)


# --------------------------------------------------------------------------------------- writing


@dataclass(frozen=True)
class JsonStyle:
    """The punctuation used to write JSON-like text. The default is ``json.dumps``' own."""

    quote_open: str = '"'
    quote_close: str = '"'
    colon: str = ": "
    comma: str = ", "
    braces: tuple[str, str] = ("{", "}")
    brackets: tuple[str, str] = ("[", "]")
    trailing_comma: bool = False
    indent: int | None = None


def style_for(flags: Iterable[str]) -> JsonStyle:
    """The ``JsonStyle`` for a set of flags (``fenced`` JSON is pretty-printed, as models do in
    fences).
    """
    flags = frozenset(flags)
    style = JsonStyle(
        indent=2 if "fenced" in flags else None, trailing_comma="trailing_comma" in flags
    )
    if "fullwidth" in flags:
        style = replace(
            style,
            quote_open="“",
            quote_close="”",
            colon="：",
            comma="，",
            braces=("｛", "｝"),
            brackets=("［", "］"),
        )
    elif "fullwidth_punctuation" in flags:
        style = replace(style, colon="：", comma="，")
    if "single_quotes" in flags:
        style = replace(style, quote_open="'", quote_close="'")
    return style


def _quote(text: str, style: JsonStyle) -> str:
    if style.quote_open == "'":
        body = json.dumps(text, ensure_ascii=False)[1:-1].replace('\\"', '"').replace("'", "\\'")
    else:
        body = json.dumps(text, ensure_ascii=False)[1:-1]
    return f"{style.quote_open}{body}{style.quote_close}"


def dump(value: Any, style: JsonStyle = JsonStyle(), *, _level: int = 0) -> str:
    """Write ``value`` (JSON data) as text in ``style``; with the default style this equals
    ``json.dumps``.
    """
    if isinstance(value, str):
        return _quote(value, style)
    if isinstance(value, dict):
        items = [
            f"{_quote(str(key), style)}{style.colon}{dump(item, style, _level=_level + 1)}"
            for key, item in value.items()
        ]
        return _container(items, style.braces, style, _level)
    if isinstance(value, (list, tuple)):
        return _container(
            [dump(item, style, _level=_level + 1) for item in value], style.brackets, style, _level
        )
    return json.dumps(value, ensure_ascii=False)  # numbers, true/false/null


def _container(items: list[str], ends: tuple[str, str], style: JsonStyle, level: int) -> str:
    opening, closing = ends
    if not items:
        return opening + closing
    tail = style.comma.rstrip() if style.trailing_comma else ""
    if style.indent is None:
        return opening + style.comma.join(items) + tail + closing
    pad = " " * (style.indent * (level + 1))
    separator = style.comma.rstrip() + "\n" + pad
    return f"{opening}\n{pad}{separator.join(items)}{tail}\n{' ' * (style.indent * level)}{closing}"


_PROSE = {
    "zh": (
        (
            "好的，我来调用 {name} 工具处理这个请求。",
            "这个问题需要用到工具 {name}，调用如下：",
            "明白了，我先调用 {name} 获取需要的信息。",
        ),
        (
            "请执行这个调用，并把结果告诉我。",
            "拿到结果后我会继续回答你。",
            "工具返回结果后，我再给出最终答复。",
        ),
    ),
    "en": (
        (
            "Sure, I'll call the {name} tool for this.",
            "This needs the {name} tool. Here is the call:",
            "Let me use {name} first to get what I need.",
        ),
        (
            "Please run it and send me the result.",
            "I'll continue once the result comes back.",
            "Once the tool returns, I'll give you the final answer.",
        ),
    ),
}


def _pick(options: tuple[str, ...], key: str) -> str:
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return options[digest[0] % len(options)]


def render_json(value: Any, flags: Iterable[str] = ()) -> str:
    """Only the JSON, with the syntax flags applied (no fence, no sentences). Used for ReAct's
    Action Input.
    """
    return dump(value, style_for(frozenset(flags) & SYNTAX_FLAGS))


def render_reply(
    value: Any, flags: Iterable[str] = (), *, tool_name: str = "", language: str = "zh"
) -> str:
    """A whole assistant reply carrying the call object ``value``, messed up according to
    ``flags``.
    """
    flags = frozenset(flags)
    text = dump(value, style_for(flags))
    if "fenced" in flags:
        text = f"```json\n{text}\n```"
    if "prose" in flags:
        before, after = _PROSE["zh" if language == "zh" else "en"]
        key = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
        text = (
            f"{_pick(before, 'before' + key).format(name=tool_name)}\n\n{text}\n\n"
            f"{_pick(after, 'after' + key)}"
        )
    return text


def truncated_json(value: Any, *, name: str, arguments: Any) -> str:
    """The ``malformed_json`` fault: the call cut off mid-way, as a model stopped by its token limit
    writes it.

    ``value`` is the whole reply object, ``name`` and ``arguments`` the call inside it. With
    arguments the text stops in the middle of the last argument's value; with none it stops in the
    middle of the tool's name. Either way no parser can recover the complete call from it.
    """
    text = dump(value)
    if isinstance(arguments, dict) and arguments:
        last_key, last_value = list(arguments.items())[-1]
        marker = f"{json.dumps(str(last_key), ensure_ascii=False)}: "
        start = text.rfind(marker)
        if start >= 0:
            start += len(marker)
            if isinstance(last_value, str) and len(last_value) >= 2:
                return (
                    text[:start]
                    + json.dumps(last_value[: len(last_value) // 2], ensure_ascii=False)[:-1]
                )
            return text[:start]
    start = text.find(json.dumps(name, ensure_ascii=False))
    if start < 0:
        return text[: len(text) // 2]
    return text[: start + 1 + max(1, len(name) // 2)]


# --------------------------------------------------------------------------------------- reading

_OPENERS = {"{": "}", "｛": "}", "[": "]", "［": "]"}
_CLOSERS = {"}": "}", "｝": "}", "]": "]", "］": "]"}
_COLONS = ":："
_COMMAS = ",，"
_QUOTES = {'"': '"', "'": "'", "“": "”", "”": "”", "‘": "’", "’": "’"}
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "/": "/",
    "\\": "\\",
    '"': '"',
    "'": "'",
}
_LITERALS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}
MAX_DEPTH = 64
_COMMENT = r"//[^\n]*|/\*(?:.*?\*/|.*\Z)"
_SKIP = re.compile(rf"(?:\s+|{_COMMENT})*", re.DOTALL)
_SKIP_COMMAS = re.compile(rf"(?:[\s,，]+|{_COMMENT})*", re.DOTALL)
_BARE: dict[str, re.Pattern[str]] = {}


class _Reader:
    """A forgiving recursive-descent reader for JSON-like text (see ``loads_lenient``)."""

    def __init__(self, text: str, pos: int):
        self.text = text
        self.pos = pos

    def fail(self, what: str) -> ValueError:
        return ValueError(f"{what} at position {self.pos}")

    def skip(self, commas: bool = False) -> None:
        """Step over whitespace and comments (and commas, if asked) with one regex match."""
        self.pos = (_SKIP_COMMAS if commas else _SKIP).match(self.text, self.pos).end()

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise self.fail("nested too deeply")
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("unexpected end of text")
        ch = self.text[self.pos]
        if ch in _OPENERS:
            return self.container(depth)
        if ch in _QUOTES:
            return self.string()
        return self.bare(stop=_COMMAS + "}｝]］\n")

    def container(self, depth: int) -> Any:
        closing = _OPENERS[self.text[self.pos]]
        is_object = closing == "}"
        self.pos += 1
        result: Any = {} if is_object else []
        while True:
            self.skip(commas=True)
            if self.pos >= len(self.text):
                raise self.fail("unclosed " + ("object" if is_object else "array"))
            ch = self.text[self.pos]
            if ch in _CLOSERS:
                if _CLOSERS[ch] != closing:
                    raise self.fail(f"mismatched {ch!r}")
                self.pos += 1
                return result
            start = self.pos
            if is_object:
                key = (
                    self.string() if ch in _QUOTES else self.bare(stop=_COLONS + _COMMAS + "}｝\n")
                )
                self.skip()
                item = None
                if self.pos < len(self.text) and self.text[self.pos] in _COLONS:
                    self.pos += 1
                    item = self.value(depth + 1)
                result[str(key)] = item
            else:
                result.append(self.value(depth + 1))
            if self.pos == start:  # a character nothing can consume: step over it
                self.pos += 1

    def string(self) -> str:
        text = self.text
        opening = text[self.pos]
        closers = (
            {_QUOTES[opening]}
            | ({"“", "”"} if opening in "“”" else set())
            | ({"‘", "’"} if opening in "‘’" else set())
        )
        self.pos += 1
        out: list[str] = []
        while self.pos < len(text):
            ch = text[self.pos]
            if ch == "\\" and self.pos + 1 < len(text):
                nxt = text[self.pos + 1]
                if nxt == "u" and re.fullmatch(
                    r"[0-9a-fA-F]{4}", text[self.pos + 2 : self.pos + 6]
                ):
                    out.append(chr(int(text[self.pos + 2 : self.pos + 6], 16)))
                    self.pos += 6
                else:
                    out.append(_ESCAPES.get(nxt, nxt))
                    self.pos += 2
                continue
            self.pos += 1
            if ch in closers:
                return "".join(out)
            out.append(ch)
        raise self.fail("unterminated string")

    def bare(self, stop: str) -> Any:
        start = self.pos
        pattern = _BARE.get(stop)
        if pattern is None:
            pattern = _BARE[stop] = re.compile("[^" + re.escape(stop + "{[｛［") + "]*")
        self.pos = pattern.match(self.text, start).end()
        word = self.text[start : self.pos].strip()
        if word in _LITERALS:
            return _LITERALS[word]
        if _NUMBER.fullmatch(word):
            return json.loads(word)
        return word


def loads_lenient(text: str, pos: int = 0) -> tuple[Any, int]:
    """Read one JSON-like value starting at ``pos``; return it and the position just after it.

    Accepts what models and hand-written prompts put in JSON: full-width punctuation and quotes,
    single quotes, trailing or missing commas, ``//`` and ``/* */`` comments, unquoted keys and
    placeholder values (``<参数值>`` is read as a string). An unclosed object or string raises
    ``ValueError``: a cut-off reply is not a call.
    """
    reader = _Reader(text, pos)
    value = reader.value(0)
    return value, reader.pos


MAX_FAILED_STARTS = 64
"""Opening brackets tried without finding a value before ``iter_json_values`` gives up on the rest
of a text.
"""

MAX_FAILED_READ = 64_000
"""Characters the lenient reader may step through, in all, on attempts that found no value.

A failed attempt can read to the end of the text (an unclosed bracket swallows everything after
it), so a count of attempts alone leaves the work quadratic in the text's length; this bounds it.
"""

_OPENING = re.compile(r"[{\[｛［]")


def iter_json_values(text: str, *, lenient: bool = True) -> Iterable[tuple[int, int, Any]]:
    """Every top-level JSON object or array in ``text``, as ``(start, end, value)``, in order.

    Strict JSON is tried first at each ``{``/``[``, then (if ``lenient``) the lenient reader of
    ``loads_lenient``. A position where neither reads a value is skipped, so prose with stray braces
    is fine — up to ``MAX_FAILED_STARTS`` such positions and ``MAX_FAILED_READ`` characters read by
    them in all, so the work stays linear in the text's length however it is made (and nesting
    deeper than Python's recursion limit is a failed attempt, not a crash).
    """
    decoder = json.JSONDecoder()
    pos, failed, wasted = 0, 0, 0
    while failed < MAX_FAILED_STARTS and wasted < MAX_FAILED_READ:
        match = _OPENING.search(text, pos)
        if not match:
            return
        start = match.start()
        try:
            value, end = decoder.raw_decode(text, start)
        except (json.JSONDecodeError, RecursionError):
            if not lenient:
                pos, failed = start + 1, failed + 1
                continue
            reader = _Reader(text, start)
            try:
                value, end = reader.value(0), reader.pos
            except (ValueError, RecursionError):
                pos, failed, wasted = start + 1, failed + 1, wasted + max(reader.pos - start, 1)
                continue
        yield start, end, value
        pos = end
