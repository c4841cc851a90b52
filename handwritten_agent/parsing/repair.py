"""Step 2: small, string-aware repairs of almost-JSON, each its own function, applied in a fixed
order.

Text inside string values is never touched, so "北京，晴" keeps its full-width comma. Left out:
guessing at truncated output (a block that is never closed stays an error) and evaluating anything
as code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ..jsontext import describe_json_error, loads_bounded
from ..text import shorten
from .blocks import (
    _BEFORE_VALUE,
    _FANCY_QUOTES,
    JsonBlock,
    _string_close,
    _string_end,
    find_json_blocks,
)
from .results import MAX_BLOCKS, MAX_DEPTH

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
    """Split JSON-like text into ``(kind, raw text, closed)`` segments: "code", "string" or
    "comment".

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
    """Remove // line comments, /* block comments */ and # line comments that sit outside
    strings.
    """
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
    return "".join(
        _requote(raw, closed) if kind == "string" else raw for kind, raw, closed in _lex(text)
    )


_FULLWIDTH = str.maketrans(
    {"，": ",", "：": ":", "｛": "{", "｝": "}", "［": "[", "］": "]", "\u3000": " "}
)


def normalize_fullwidth_punctuation(text: str) -> str:
    """Replace full-width ， ： ｛ ｝ ［ ］ and the ideographic space with their ASCII forms,
    outside strings.
    """
    return _outside_strings(text, lambda part: part.translate(_FULLWIDTH))


_BARE_KEY = re.compile(r"([{,]\s*)([^\W\d][\w-]*)(\s*:)")


def quote_bare_keys(text: str) -> str:
    """Put double quotes around unquoted keys, as in JavaScript: ``{city: "北京"}`` -> ``{"city": "
    北京"}``.
    """
    return _outside_strings(text, lambda part: _BARE_KEY.sub(r'\1"\2"\3', part))


_PYTHON_LITERALS = re.compile(r"\b(True|False|None)\b")
_JSON_LITERALS = {"True": "true", "False": "false", "None": "null"}


def replace_python_literals(text: str) -> str:
    """Replace Python's True / False / None with JSON's true / false / null, outside strings."""
    return _outside_strings(
        text, lambda part: _PYTHON_LITERALS.sub(lambda m: _JSON_LITERALS[m.group(1)], part)
    )


_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def remove_trailing_commas(text: str) -> str:
    """Drop a comma that comes right before a closing } or ] (allowed in Python and JS, not in
    JSON).
    """
    return _outside_strings(text, lambda part: _TRAILING_COMMA.sub(r"\1", part))


def collapse_doubled_braces(text: str) -> str:
    """Turn ``{{"name": …}}`` into ``{"name": …}``, as small models write after copying a template's
    escaped braces.

    Only a fragment that starts with ``{{`` is touched: valid JSON never does (a key must be a
    string).
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
"""The repairs, in the order ``repair_json`` applies them: comments and quotes first, so that every
later repair only meets standard double-quoted strings."""


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
    """The Chinese reason of a decoding error: ours are Chinese already, ``json``'s are
    translated.
    """
    if isinstance(exc, json.JSONDecodeError):
        return describe_json_error(exc)
    text = str(exc)
    return text if not text.isascii() else describe_json_error(text)


def _loads(text: str) -> Any:
    return loads_bounded(text, max_depth=MAX_DEPTH, strict=False, parse_constant=_reject_constant)


def _loads_lenient(text: str) -> Any:
    """``json.loads``, and if that fails, ``json.loads`` of the repaired text (its error is
    raised).
    """
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
            first_error = first_error or (
                f"从第 {block.start} 个字符开始的 JSON 一直没有闭合（输出被截断了？）："
                f"{shorten(block.text.strip(), 80, one_line=False)!r}"
            )
            continue
        try:
            return _loads_lenient(block.text)
        except ValueError as exc:
            first_error = first_error or (
                f"第 {block.start} 个字符处的 JSON 修补后仍然无法解析（{_reason(exc)}）"
            )
    if not blocks:
        try:
            return _loads_lenient(text.strip())  # a bare scalar such as 42 or "text"
        except ValueError:
            pass
        raise ValueError(
            f"文字里没有找到 JSON 对象或数组：{shorten(text.strip(), 80, one_line=False)!r}"
        )
    raise ValueError(first_error)
