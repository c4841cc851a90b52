"""Text for people: any value cut short enough to show in a line, and rows aligned into a plain-text
table.

Used for display, error messages and logs everywhere in the package, so every cut looks the same
(an ellipsis, optionally the full length) and every table lines up: a Chinese character takes two
columns in a terminal or a notebook's monospace output, so columns are padded by display width
(``unicodedata.east_asian_width``), not by ``len``.

Left out: wrapping, colours and HTML (the confirmation card in ``widgets`` is the one HTML view).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import Any


def shorten(
    value: Any, limit: int = 160, *, one_line: bool = True, show_length: bool = False
) -> str:
    """``value`` as text of at most about ``limit`` characters, for display and error messages.

    Non-strings are written as JSON when they can be (``repr`` otherwise); ``one_line`` folds
    whitespace; ``show_length`` appends the full length when the text was cut.
    """
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(value)
    if one_line:
        text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 1, 0)] + "…"
    return cut + f"（共 {len(text)} 个字符）" if show_length else cut


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace font: two for each wide (CJK) character."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` display columns."""
    return text + " " * max(0, width - display_width(text))


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows under headers, columns aligned by display width, a rule under the header."""
    cells = [[str(h) for h in headers]] + [
        [("" if value is None else str(value)) for value in row] for row in rows
    ]
    widths = [max(display_width(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "  ".join(pad(cell, widths[i]) for i, cell in enumerate(row)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


__all__ = ["display_width", "pad", "shorten", "text_table"]
