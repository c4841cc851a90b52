"""Plain-text tables for the notebook: the level table, a policy per role, the audit log.

Chinese characters take two columns in a terminal or a notebook's monospace output, so columns are
padded by display width (``unicodedata.east_asian_width``), not by ``len``.

Left out: HTML tables (the confirmation card in ``widgets`` is the one HTML view).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows under headers, columns aligned by display width, a rule under the header."""
    cells = [[str(h) for h in headers]] + [[("" if value is None else str(value)) for value in row] for row in rows]
    widths = [max(display_width(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(_pad(cell, widths[i]) for i, cell in enumerate(row)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


__all__ = ["display_width", "format_table"]
