"""A function's source for a notebook to print, with the parts a day does not teach yet left out.

Day 3 reads ``Agent._loop`` on first contact; the real loop also resumes paused runs (Day 5), lets
hooks review an answer (Day 6) and so on. ``trimmed_source(fn, leave_out)`` prints the real source
(``inspect.getsource``, so it never drifts from the package) with each statement whose first line
starts with one of ``leave_out``'s keys replaced by one line, ``...  # <label>``, at its
indentation. The comment lines right above a left-out statement go with it, and neighbouring
placeholders with the same label become one. For ``except …:`` the header stays and only its body
is replaced. The result still parses as Python.

A key that matches no statement is an error (``ValueError``), so a notebook that trims a function
which has since changed fails loudly instead of printing something else.

Left out: trimming expressions inside a statement, and decorators (the source starts at ``def``).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Mapping
from typing import Any


def trimmed_source(fn: Callable[..., Any], leave_out: Mapping[str, str]) -> str:
    """The source of ``fn`` with the statements ``leave_out`` names replaced by ``...  # label``."""
    source = textwrap.dedent(inspect.getsource(fn))
    lines = source.splitlines()
    spans: list[tuple[int, int, str, str]] = []  # first line, last line (0-based), indent, label
    used: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.stmt, ast.ExceptHandler)) or node.lineno == 1:
            continue  # not a statement, or the function's own "def" line
        first = lines[node.lineno - 1].strip()
        key = next((key for key in leave_out if first.startswith(key)), None)
        if key is None:
            continue
        used.add(key)
        start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        if isinstance(node, ast.ExceptHandler):  # keep "except …:", replace what it does
            start = node.body[0].lineno - 1
        else:
            while start > 0 and lines[start - 1].strip().startswith("#"):
                start -= 1  # the comment that explains it goes with it
        indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
        spans.append((start, end, indent, leave_out[key]))
    missing = [key for key in leave_out if key not in used]
    if missing:
        raise ValueError(f"{fn.__qualname__} 里没有以这些文字开头的语句：{missing}（源码改过了？）")
    out: list[str] = []
    skip_to = -1
    spans.sort()
    by_start: dict[int, tuple[int, str, str]] = {}
    for start, end, indent, label in spans:
        if start not in by_start or end > by_start[start][0]:
            by_start[start] = (end, indent, label)
    for number, line in enumerate(lines):
        if number <= skip_to:
            continue
        if number in by_start:
            end, indent, label = by_start[number]
            placeholder = f"{indent}...  # {label}"
            if not out or out[-1] != placeholder:
                out.append(placeholder)
            skip_to = end
            continue
        out.append(line)
    return "\n".join(out) + "\n"
