"""Generate ``exercises/<name>_exercises.ipynb`` from ``solutions/<name>_solutions.ipynb``: the
days (``day3``) and the appendices (``appendix_mcp``).

The solutions notebooks are the single source of every exercise. A learner's part of a code cell
sits between two marker lines (nbgrader's convention)::

    def extract_json(text: str) -> dict:
        ### BEGIN SOLUTION
        ...
        ### END SOLUTION

and becomes, at the indentation of the BEGIN line::

    def extract_json(text: str) -> dict:
        # YOUR CODE HERE
        raise NotImplementedError()

A markdown cell may hide an answer between ``<!-- BEGIN SOLUTION -->`` and ``<!-- END SOLUTION
-->``; it becomes ``（在这里写下你的答案）``. Outputs and execution counts are cleared, "参考答案"
in the title becomes "练习", and the file is written byte-for-byte deterministically (sorted keys,
one-space indent, cell ids derived from the cell's position, only stable metadata kept), so a test
can tell when ``exercises/`` is out of date.

Left out: grading, points, and hidden tests (nbgrader's other features) — the check cells that
follow each exercise call ``handwritten_agent.course.exercises.check`` instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BEGIN_CODE = "### BEGIN SOLUTION"
END_CODE = "### END SOLUTION"
BEGIN_MARKDOWN = "<!-- BEGIN SOLUTION -->"
END_MARKDOWN = "<!-- END SOLUTION -->"
CODE_PLACEHOLDER = ("# YOUR CODE HERE", "raise NotImplementedError()")
MARKDOWN_PLACEHOLDER = "（在这里写下你的答案）"
SOLUTION_TITLE, EXERCISE_TITLE = "参考答案", "练习"

# The metadata every generated notebook carries, whatever kernel executed the solutions.
NOTEBOOK_METADATA: dict[str, Any] = {
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}
KEPT_CELL_METADATA = ("tags",)

_CODE_MARKER = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>### (?:BEGIN|END) SOLUTION)[ \t]*$")
_MARKDOWN_MARKER = re.compile(r"<!--\s*(BEGIN|END) SOLUTION\s*-->")


class MarkerError(ValueError):
    """Solution markers that do not pair up (unbalanced, nested, or misplaced)."""


@dataclass(frozen=True)
class Pair:
    """One solutions notebook and the exercises notebook generated from it."""

    solution: Path
    exercise: Path


def strip_code_solutions(source: str, where: str = "cell") -> str:
    """Replace every ``### BEGIN SOLUTION`` … ``### END SOLUTION`` region of a code cell by the
    placeholder.

    ``where`` names the cell in error messages (e.g. ``"solutions/day2_solutions.ipynb, cell 5"``).
    """
    out: list[str] = []
    open_line: int | None = None
    for number, line in enumerate(source.splitlines(keepends=True), start=1):
        match = _CODE_MARKER.match(line.rstrip("\r\n"))
        if match is None:
            if open_line is None:
                out.append(line)
            continue
        indent, marker = match.group("indent"), match.group("marker")
        if marker == BEGIN_CODE:
            if open_line is not None:
                raise MarkerError(
                    f"{where}, line {number}: nested `{BEGIN_CODE}` (the one on line {open_line} "
                    f"is not closed yet); close it with `{END_CODE}` first"
                )
            open_line = number
            out.extend(f"{indent}{text}\n" for text in CODE_PLACEHOLDER)
        else:
            if open_line is None:
                raise MarkerError(
                    f"{where}, line {number}: `{END_CODE}` without a `{BEGIN_CODE}` before it"
                )
            open_line = None
    if open_line is not None:
        raise MarkerError(
            f"{where}, line {open_line}: `{BEGIN_CODE}` is never closed; add `{END_CODE}` after the"
            " solution"
        )
    return "".join(out).rstrip("\n")


def strip_markdown_solutions(source: str, where: str = "cell") -> str:
    """Replace every ``<!-- BEGIN SOLUTION -->`` … ``<!-- END SOLUTION -->`` region of a markdown
    cell.
    """
    out: list[str] = []
    position = 0
    open_at: int | None = None
    for match in _MARKDOWN_MARKER.finditer(source):
        line = source.count("\n", 0, match.start()) + 1
        if match.group(1) == "BEGIN":
            if open_at is not None:
                raise MarkerError(
                    f"{where}, line {line}: nested `{BEGIN_MARKDOWN}` (the one on line {open_at} is"
                    " not closed yet)"
                )
            out.append(source[position : match.start()])
            out.append(MARKDOWN_PLACEHOLDER)
            open_at = line
        else:
            if open_at is None:
                raise MarkerError(
                    f"{where}, line {line}: `{END_MARKDOWN}` without a `{BEGIN_MARKDOWN}` before it"
                )
            open_at = None
        position = match.end()
    if open_at is not None:
        raise MarkerError(
            f"{where}, line {open_at}: `{BEGIN_MARKDOWN}` is never closed; add `{END_MARKDOWN}`"
            " after the answer"
        )
    out.append(source[position:])
    return "".join(out)


def _source_text(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _retitle(source: str) -> str:
    """The first line of the title cell: "Day 2 参考答案" → "Day 2 练习"."""
    first, newline, rest = source.partition("\n")
    return first.replace(SOLUTION_TITLE, EXERCISE_TITLE) + newline + rest


def make_exercise(notebook: dict[str, Any], name: str = "notebook") -> dict[str, Any]:
    """The exercises notebook for one solutions notebook (both as nbformat-4 JSON dicts)."""
    if notebook.get("nbformat") != 4:
        raise ValueError(
            f"{name}: expected an nbformat 4 notebook, got nbformat {notebook.get('nbformat')!r}"
        )
    cells = []
    for index, cell in enumerate(notebook.get("cells", [])):
        kind = cell.get("cell_type")
        where = f"{name}, cell {index + 1} ({kind})"
        source = _source_text(cell)
        if kind == "code":
            source = strip_code_solutions(source, where)
        elif kind == "markdown":
            source = strip_markdown_solutions(source, where)
            if index == 0:
                source = _retitle(source)
        elif _MARKDOWN_MARKER.search(source) or _CODE_MARKER.search(source):
            raise MarkerError(
                f"{where}: solution markers are only allowed in code and markdown cells"
            )
        new: dict[str, Any] = {
            "cell_type": kind,
            "id": f"cell-{index + 1:02d}",
            "metadata": {
                key: cell["metadata"][key]
                for key in KEPT_CELL_METADATA
                if key in cell.get("metadata", {})
            },
            "source": source.splitlines(keepends=True),
        }
        if kind == "code":
            new.update(execution_count=None, outputs=[])
        cells.append(new)
    return {"cells": cells, "metadata": NOTEBOOK_METADATA, "nbformat": 4, "nbformat_minor": 5}


def dumps(notebook: dict[str, Any]) -> str:
    """Notebook JSON the way nbformat writes it: sorted keys, one-space indent, trailing newline."""
    return (
        json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False, separators=(",", ": "))
        + "\n"
    )


def render(solution_path: Path) -> str:
    """The exact text of the exercises notebook generated from ``solution_path``."""
    notebook = json.loads(Path(solution_path).read_text(encoding="utf-8"))
    return dumps(make_exercise(notebook, name=str(solution_path)))


def pairs(root: Path | str = ".", only: Iterable[str] | None = None) -> list[Pair]:
    """Every ``solutions/<name>_solutions.ipynb`` under ``root`` with its
    ``exercises/<name>_exercises.ipynb``: the days in order, then the appendices.

    ``only`` keeps the notebooks whose ``<name>`` is listed (e.g. ``["appendix_mcp"]``).
    """
    root = Path(root)
    found = sorted(
        (root / "solutions").glob("*_solutions.ipynb"),
        key=lambda path: (not path.name.startswith("day"), path.name),
    )
    wanted = None if only is None else set(only)
    return [
        Pair(path, root / "exercises" / path.name.replace("_solutions.ipynb", "_exercises.ipynb"))
        for path in found
        if wanted is None or path.name.removesuffix("_solutions.ipynb") in wanted
    ]


class LearnerWork(RuntimeError):
    """An exercises notebook holds a learner's work; ``build`` will not overwrite it without
    ``force``.
    """

    def __init__(self, paths: list[Path], written: list[Path] | None = None):
        self.paths = paths
        self.written = written or []
        names = ", ".join(str(path) for path in paths)
        super().__init__(
            f"{names} 里有你自己的内容（保存的输出或填好的答案），所以没有覆盖它。"
            "用 `make check-exercises` 检查你的答案；想从一份新的练习重新开始，先把这个文件移到别处"
            "（或者加 --force，它会丢掉你写的内容），再生成一次。"
        )


def has_learner_work(path: Path) -> bool:
    """True when an exercises notebook was run or filled in: the generator never writes outputs, and
    never fewer placeholders.
    """
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    code = [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]
    if any(cell.get("outputs") or cell.get("execution_count") is not None for cell in code):
        return True
    return sum(
        _source_text(cell).count(CODE_PLACEHOLDER[1]) for cell in code
    ) < _placeholders_expected(path)


def _placeholders_expected(exercise: Path) -> int:
    solution = (
        exercise.parent.parent
        / "solutions"
        / exercise.name.replace("_exercises.ipynb", "_solutions.ipynb")
    )
    if not solution.exists():
        return 0
    notebook = json.loads(render(solution))
    return sum(
        _source_text(cell).count(CODE_PLACEHOLDER[1])
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
    )


def build(
    root: Path | str = ".", *, force: bool = False, only: Iterable[str] | None = None
) -> list[Path]:
    """Write every exercises notebook (or those named in ``only``); return the paths that changed.

    An exercises notebook holding a learner's work (see ``has_learner_work``) is not overwritten
    unless ``force``: ``LearnerWork`` is raised after the other notebooks are written.
    """
    changed, kept = [], []
    for pair in pairs(root, only):
        text = render(pair.solution)
        if not pair.exercise.exists() or pair.exercise.read_text(encoding="utf-8") != text:
            if not force and pair.exercise.exists() and has_learner_work(pair.exercise):
                kept.append(pair.exercise)
                continue
            pair.exercise.parent.mkdir(parents=True, exist_ok=True)
            pair.exercise.write_text(text, encoding="utf-8", newline="\n")
            changed.append(pair.exercise)
    if kept:
        raise LearnerWork(kept, changed)
    return changed


def stale(root: Path | str = ".", only: Iterable[str] | None = None) -> list[Path]:
    """The exercises notebooks that are missing or differ from what ``build`` would write."""
    out = []
    for pair in pairs(root, only):
        if not pair.exercise.exists() or pair.exercise.read_text(encoding="utf-8") != render(
            pair.solution
        ):
            out.append(pair.exercise)
    return out


def orphans(root: Path | str = ".") -> list[Path]:
    """Exercises notebooks whose solutions notebook no longer exists."""
    root = Path(root)
    expected = {pair.exercise for pair in pairs(root)}
    return sorted(
        path for path in (root / "exercises").glob("*_exercises.ipynb") if path not in expected
    )
