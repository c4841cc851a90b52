"""Step 1: find the JSON blocks in a reply — one linear scan counting brackets outside strings.

Unlike ``repair`` it changes nothing: it only says where each top-level ``{...}`` / ``[...]`` starts
and ends (and marks a block that is never closed). Left out: deciding what a block means
(``calls``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --------------------------------------------------------------------------------------------
# Strings: where they start and end (shared by steps 1 and 2)
# --------------------------------------------------------------------------------------------

_CLOSE_PATTERNS = {
    closers: re.compile("[" + re.escape(closers) + r"\\]") for closers in ('"', "'", "’'", '”"')
}
_FANCY_QUOTES = {"'": "'", "‘": "’'", "’": "’'", "“": '”"', "”": '”"'}  # opener -> accepted closers
_BEFORE_VALUE = set("{[,:｛［，：")
_AFTER_VALUE = set("}],:｝］，：")


def _followed_by_structure(text: str, index: int) -> bool:
    while index < len(text) and text[index].isspace():
        index += 1
    return index == len(text) or text[index] in _AFTER_VALUE


def _string_close(text: str, start: int, closers: str, lenient: bool) -> int:
    """Index of the quote closing the string that opens at ``start``, or -1 if it never closes.

    A standard string closes at the first unescaped ``"``. A ``lenient`` one (quoted with ' ‘ ’ “ ”)
    closes only at a closer followed by } ] , : or the end, so "it's" does not end at its
    apostrophe.
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
            if (
                _previous_non_space(text, pos) not in _BEFORE_VALUE
                or unclosable.get(closers, len(text)) <= pos
            ):
                continue  # an apostrophe, or a string we already know never closes
            close = _string_close(text, pos, closers, lenient=True)
            if close < 0:
                # any later string of this kind fails too: keeps the scan linear
                unclosable[closers] = pos
            else:
                skip_until = close + 1
        elif char in _OPENERS:
            stack.append((pos, _OPENERS[char]))
        elif stack[-1][1] == _CLOSERS[char]:  # a mismatched closer is ignored
            start, _ = stack.pop()
            closed.append((start, pos + 1, stack[-1][0] if stack else None))
    never_closed = {position for position, _ in stack}
    blocks = [
        JsonBlock(start, end, True, text[start:end])
        for start, end, parent in closed
        if parent is None or parent in never_closed
    ]
    if stack:
        start = stack[0][0]
        blocks.append(JsonBlock(start, len(text), False, text[start:]))
    blocks.sort(key=lambda block: block.start)
    return blocks


_WRAPPERS = ("```json", "```JSON", "```", "<tool_call>", "</tool_call>", "[TOOL_CALLS]")


def _strip_reasoning(text: str) -> str:
    """Drop a leading <think>...</think> section: reasoning models write drafts there, not calls.

    Only a section at the very start counts (or, for chat templates that put the opening tag in the
    prompt, text up to a "</think>" at the start of a line), so "<think>" inside a JSON string
    value is left alone.
    """
    stripped = text.lstrip()
    if stripped.startswith("<think>"):
        end = stripped.find("</think>")
        return "" if end < 0 else stripped[end + len("</think>") :]
    if text.startswith("</think>"):
        return text[len("</think>") :]
    end = text.find("\n</think>")
    return text if end < 0 else text[end + len("\n</think>") :]
