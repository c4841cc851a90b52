"""How long each day of the course takes, estimated from the notebooks' content:
``python -m handwritten_agent reading-time``.

For each notebook in ``notebooks/`` the estimate adds four parts, each from a count and a stated
rate (``Rates``):

- **prose**: the Markdown cells' Han characters at ``han_per_minute`` and, separately, their Latin
  words (English terms, identifiers in backticks) at ``latin_words_per_minute``. Fenced code blocks
  in Markdown count as code lines instead; HTML comments, link targets and tags are not read.
- **code**: the non-blank lines of the code cells (comments included: the learner reads them) at
  ``code_lines_per_minute``, plus ``minutes_per_code_cell`` for running each cell and looking at
  its output.
- **run**: the time the notebook's cells take to execute, measured (``RUN_SECONDS``).
- **exercises**: the day's exercises (``solutions/<day>_solutions.ipynb``, from which
  ``exercises/`` is generated): the non-blank, non-comment lines between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION`` — the lines the learner must write — at ``written_lines_per_minute``, plus
  ``minutes_per_exercise`` for each exercise (a ``## 练习`` heading): reading its task, running its
  check cell and reading the check's message.

The rates and where they come from:

- Han characters: 150 a minute. Native readers read ordinary Chinese text aloud at 255 ± 29
  characters a minute (Trauzettel-Klosinski & Dietz, "Standardized Assessment of Reading
  Performance: The New International Reading Speed Texts IReST", IOVS 53(9):5452–5461, 2012);
  silent reading of ordinary text is usually put at 260–300 a minute. Technical text that is read to
  be understood (and then used in code) is slower; 150, about 60% of the IReST rate, is the
  conservative rate used here.
- Latin words: 120 a minute, half the 238 words a minute of adult silent reading of English
  non-fiction (Brysbaert, "How many words do we read per minute? A review and meta-analysis of
  reading rate", Journal of Memory and Language 109:104047, 2019): in this prose they are mostly
  identifiers the reader matches against the code.
- Code read: 400 lines an hour (6⅔ a minute), the middle of the 300–500 lines an hour that the
  Cisco code-review study gives as the most a reviewer can read with understanding (Cohen, "Best
  Kept Secrets of Peer Code Review", SmartBear, 2006) and below the 500 lines an hour Humphrey
  gives for preparing a review of application code (Humphrey, "Managing the Software Process",
  1989, as cited in McConnell's "Code Complete"). Running a cell and looking at its output: half a
  minute — a stated assumption, not a measurement.
- Code written: 40 lines an hour (1.5 minutes a line). Studies of small programs written from a
  specification report program lengths and work times (design, coding, testing) that come to a few
  tens of lines an hour, e.g. Prechelt, "An empirical comparison of seven programming languages",
  IEEE Computer 33(10), 2000; an exercise comes with its signature, docstring, a worked example in
  the day's notebook and a checker, so the upper part of that range is used. Ten minutes per
  exercise on top — a stated assumption.
- Run: the per-notebook seconds of ``make live`` (the course's local model on two idle cores,
  2026-12-07, as the README's ``make live`` paragraph states them): the slower of the two measured
  runs (on the offline simulator each notebook takes a few seconds, see the README's bench table).
  The exercises' check cells (36 s for all eight solutions notebooks) are within the per-exercise
  overhead.

Totals are rounded to the nearest quarter hour. So that a sentence "约 T 小时（阅读并运行约 R 小时，
N 道练习约 E 小时）" adds up, E is the exercise minutes rounded to a quarter hour and R is T − E.

Left out: a person. This is an estimate computed from content, not a timed read-through; readers
differ widely (most adults read English non-fiction at 175–300 words a minute, Brysbaert 2019), and
the time spent stuck (a failing check, a setup problem), on breaks or on re-reading is not counted.
The README's course map and each notebook's stated time are these figures;
``tests/test_reading_time.py`` checks that they agree.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: notebooks/, solutions/, README.md


@dataclass(frozen=True)
class Rates:
    """The reading, running and writing rates of the estimate (sources: the module's docstring)."""

    han_per_minute: float = 150.0
    latin_words_per_minute: float = 120.0
    code_lines_per_minute: float = 400 / 60
    minutes_per_code_cell: float = 0.5
    written_lines_per_minute: float = 40 / 60
    minutes_per_exercise: float = 10.0


RATES = Rates()

# Seconds each notebook's cells took in ``make live`` (2 cores, idle machine, 2026-12-07; the
# README's make live paragraph lists the same figures). A notebook missing here counts 0 seconds.
RUN_SECONDS: dict[str, float] = {
    "day1_anatomy_and_raw_api.ipynb": 17,
    "day2_prompt_json_tool_calling.ipynb": 39,
    "day3_native_tools_react_loop.ipynb": 32,
    "day4_memory.ipynb": 88,
    "day5_permissions.ipynb": 113,
    "day6_observability.ipynb": 118,
    "day7_office_assistant_service.ipynb": 66,
    "appendix_after_launch.ipynb": 115,
    "appendix_mcp.ipynb": 47,
}

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_URL = re.compile(r"https?://\S+")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_BEGIN = re.compile(r"^[ \t]*### BEGIN SOLUTION[ \t]*$")
_END = re.compile(r"^[ \t]*### END SOLUTION[ \t]*$")
_EXERCISE_HEADING = re.compile(r"^##[ \t]+练习", re.MULTILINE)
_DAY = re.compile(r"^(day\d+)_")


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


@dataclass(frozen=True)
class ContentCounts:
    """What a learner reads in one notebook."""

    han: int = 0  # Han characters of the Markdown prose
    latin_words: int = 0  # Latin words of the Markdown prose
    code_lines: int = 0  # non-blank lines of code cells and of fenced blocks in Markdown
    code_cells: int = 0


@dataclass(frozen=True)
class ExerciseCounts:
    """What a learner writes for one day's exercises."""

    exercises: int = 0  # "## 练习 …" headings
    lines: int = 0  # non-blank, non-comment lines inside the solution markers


def count_prose(markdown: str) -> tuple[int, int, int]:
    """(Han characters, Latin words, fenced code lines) of one Markdown cell's source."""
    text = _HTML_COMMENT.sub("", markdown)
    code = 0
    fenced = False
    prose: list[str] = []
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            code += bool(line.strip())
        else:
            prose.append(line)
    plain = _TAG.sub("", _URL.sub("", _LINK_TARGET.sub("]", "\n".join(prose))))
    return len(HAN.findall(plain)), len(LATIN_WORD.findall(plain)), code


def count_notebook(notebook: dict[str, Any]) -> ContentCounts:
    """Count the prose and the code of a notebook (the parsed ``.ipynb`` JSON)."""
    han = words = lines = cells = 0
    for cell in notebook.get("cells", []):
        source = _source(cell)
        if cell.get("cell_type") == "markdown":
            h, w, c = count_prose(source)
            han, words, lines = han + h, words + w, lines + c
        elif cell.get("cell_type") == "code":
            cells += 1
            lines += sum(1 for line in source.splitlines() if line.strip())
    return ContentCounts(han=han, latin_words=words, code_lines=lines, code_cells=cells)


def solution_lines(code: str) -> int:
    """Non-blank, non-comment lines between ``### BEGIN SOLUTION`` and ``### END SOLUTION``."""
    inside, count = False, 0
    for line in code.splitlines():
        if _BEGIN.match(line):
            inside = True
        elif _END.match(line):
            inside = False
        elif inside and line.strip() and not line.strip().startswith("#"):
            count += 1
    return count


def count_exercises(solutions: dict[str, Any]) -> ExerciseCounts:
    """Count the exercises of a solutions notebook and the lines the learner must write."""
    exercises = lines = 0
    for cell in solutions.get("cells", []):
        source = _source(cell)
        if cell.get("cell_type") == "markdown":
            exercises += len(_EXERCISE_HEADING.findall(source))
        elif cell.get("cell_type") == "code":
            lines += solution_lines(source)
    return ExerciseCounts(exercises=exercises, lines=lines)


def solutions_path(notebook: Path, root: Path = ROOT) -> Path | None:
    """``solutions/dayN_solutions.ipynb`` (or ``<appendix>_solutions``) for a notebook, if any."""
    day = _DAY.match(notebook.stem)
    path = root / "solutions" / f"{day.group(1) if day else notebook.stem}_solutions.ipynb"
    return path if path.exists() else None


def round_quarter_hours(minutes: float) -> float:
    """Minutes as hours, rounded to the nearest quarter hour (halves round up)."""
    return int(minutes / 15 + 0.5) / 4


@dataclass(frozen=True)
class Estimate:
    """One notebook's estimate: the counts, each part in minutes, and the rounded hours."""

    notebook: str
    content: ContentCounts
    exercise_counts: ExerciseCounts
    prose_minutes: float
    code_minutes: float
    run_minutes: float
    exercise_minutes: float

    @property
    def total_minutes(self) -> float:
        return self.prose_minutes + self.code_minutes + self.run_minutes + self.exercise_minutes

    @property
    def total_hours(self) -> float:
        return round_quarter_hours(self.total_minutes)

    @property
    def exercise_hours(self) -> float:
        return round_quarter_hours(self.exercise_minutes)

    @property
    def reading_hours(self) -> float:
        """Reading and running: the rounded total less the rounded exercises, so the two add up."""
        return self.total_hours - self.exercise_hours


def estimate_notebook(path: Path, root: Path = ROOT, rates: Rates = RATES) -> Estimate:
    """Estimate one notebook of ``notebooks/`` and its day's exercises."""
    content = count_notebook(json.loads(path.read_text(encoding="utf-8")))
    solutions = solutions_path(path, root)
    exercises = (
        count_exercises(json.loads(solutions.read_text(encoding="utf-8")))
        if solutions
        else ExerciseCounts()
    )
    return Estimate(
        notebook=path.name,
        content=content,
        exercise_counts=exercises,
        prose_minutes=content.han / rates.han_per_minute
        + content.latin_words / rates.latin_words_per_minute,
        code_minutes=content.code_lines / rates.code_lines_per_minute
        + content.code_cells * rates.minutes_per_code_cell,
        run_minutes=RUN_SECONDS.get(path.name, 0) / 60,
        exercise_minutes=exercises.lines / rates.written_lines_per_minute
        + exercises.exercises * rates.minutes_per_exercise,
    )


def course_notebooks(root: Path = ROOT) -> list[Path]:
    """The course's notebooks in the README's order: the days, then the appendices."""
    paths = (root / "notebooks").glob("*.ipynb")
    return sorted(paths, key=lambda p: (not p.name.startswith("day"), p.name))


def estimate_course(root: Path = ROOT, rates: Rates = RATES) -> list[Estimate]:
    return [estimate_notebook(path, root, rates) for path in course_notebooks(root)]


def format_hours(hours: float) -> str:
    """A quarter-hour figure as the README and the notebooks say it: ``约 3 小时``, ``约 2.5 小时``,
    ``约 4 小时 15 分钟``, ``约 45 分钟`` (not "4.25 小时", which no one says).
    """
    minutes = round(hours * 60)
    whole, rest = divmod(minutes, 60)
    if not whole:
        return f"约 {rest} 分钟"
    if rest in (0, 30):
        return f"约 {whole + rest / 60:g} 小时"
    return f"约 {whole} 小时 {rest} 分钟"


def stated_time(estimate: Estimate) -> str:
    """The sentence a notebook states its time with (the test looks for it verbatim)."""
    total = format_hours(estimate.total_hours)
    n = estimate.exercise_counts.exercises
    if not n:
        return f"{total}（阅读并运行），没有练习"
    return (
        f"{total}（阅读并运行{format_hours(estimate.reading_hours)}，"
        f"{n} 道练习{format_hours(estimate.exercise_hours)}）"
    )


def format_table(estimates: list[Estimate], rates: Rates = RATES) -> str:
    """A Markdown table of the counts, the parts in minutes and the rounded total."""
    lines = [
        "| notebook | 汉字 | 英文词 | 代码行（格） | 说明 | 代码 | 运行 | 练习（道/行） | 练习 "
        "| 合计 | 用时 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for e in estimates:
        c, x = e.content, e.exercise_counts
        lines.append(
            f"| {e.notebook} | {c.han} | {c.latin_words} | {c.code_lines}（{c.code_cells}）"
            f" | {e.prose_minutes:.0f} 分 | {e.code_minutes:.0f} 分 | {e.run_minutes:.1f} 分"
            f" | {x.exercises}/{x.lines} | {e.exercise_minutes:.0f} 分"
            f" | {e.total_minutes:.0f} 分 | {format_hours(e.total_hours)} |"
        )
    lines += [
        "",
        f"按内容估算，不是真人计时：汉字每分钟 {rates.han_per_minute:g} 个，"
        f"英文词每分钟 {rates.latin_words_per_minute:g} 个；"
        f"代码每小时读 {rates.code_lines_per_minute * 60:g} 行，"
        f"每格另加 {rates.minutes_per_code_cell:g} 分钟运行并看输出；运行时间取 make live 实测；"
        f"练习每小时写 {rates.written_lines_per_minute * 60:g} 行，每道另加 "
        f"{rates.minutes_per_exercise:g} 分钟。合计四舍五入到一刻钟。",
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="课程目录（含 notebooks/ 和 solutions/；默认：这个包所在的检出目录）",
    )


def main(args: argparse.Namespace) -> int:
    estimates = estimate_course(args.root)
    if not estimates:
        raise ValueError(f"{args.root / 'notebooks'} 里没有 notebook")
    print(format_table(estimates))
    return 0


__all__ = [
    "RATES",
    "RUN_SECONDS",
    "ContentCounts",
    "Estimate",
    "ExerciseCounts",
    "Rates",
    "add_arguments",
    "count_exercises",
    "count_notebook",
    "count_prose",
    "course_notebooks",
    "estimate_course",
    "estimate_notebook",
    "format_hours",
    "format_table",
    "main",
    "round_quarter_hours",
    "solution_lines",
    "stated_time",
]
