"""Text for people: one function that makes any value short enough to show in a line.

Used for display, error messages and logs everywhere in the package, so every cut looks the same
(an ellipsis, optionally the full length).

Left out: wrapping, alignment and tables (``display``).
"""

from __future__ import annotations

import json
from typing import Any


def shorten(value: Any, limit: int = 160, *, one_line: bool = True, show_length: bool = False) -> str:
    """``value`` as text of at most about ``limit`` characters, for display and error messages.

    Non-strings are written as JSON when they can be (``repr`` otherwise); ``one_line`` folds whitespace;
    ``show_length`` appends the full length when the text was cut.
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


__all__ = ["shorten"]
