"""The course's time estimate (``handwritten_agent.course.reading_time``): the counting on small
made-up notebooks, and the figures the README and the notebooks state, which must be the function's
output (so they cannot drift from the content or be edited by hand)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from handwritten_agent.course import reading_time as rt
from handwritten_agent.course.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text.splitlines(keepends=True)}


def code(text: str) -> dict:
    return {
        "cell_type": "code",
        "metadata": {},
        "execution_count": None,
        "outputs": [],
        "source": text.splitlines(keepends=True),
    }


def notebook(*cells: dict) -> dict:
    return {"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


# --- counting ---------------------------------------------------------------------------------


def test_han_characters_and_latin_words_are_counted_apart():
    han, words, fenced = rt.count_prose("## 工具调用\n\n模型返回 `tool_calls`，Agent 再执行。")
    assert han == len("工具调用模型返回再执行")  # punctuation and digits are neither
    assert words == 2  # tool_calls (one identifier), Agent
    assert fenced == 0


def test_markdown_leaves_out_comments_link_targets_and_tags_and_counts_fences_as_code():
    text = (
        "<!-- 这里的话不算 -->看[文档](https://example.com/a_b)和 <b>粗体</b>\n"
        "```python\nx = 1\n\nprint(x)  # 中文注释\n```\n"
        "结束 https://example.com/path\n"
    )
    han, words, fenced = rt.count_prose(text)
    assert han == len("看文档和粗体结束")
    assert words == 0  # the link target, the tags and the bare URL are not read
    assert fenced == 2  # the two non-blank lines inside the fence


def test_a_notebook_counts_markdown_prose_code_lines_and_cells():
    nb = notebook(
        markdown("# 第一天\n\n读 Agent 的代码。"),
        code("import json\n\n# 注释也要读\nprint(json.dumps({}))\n"),
        code(""),
        markdown("```\nfenced line\n```"),
        {"cell_type": "raw", "metadata": {}, "source": ["不算\n"]},
    )
    counts = rt.count_notebook(nb)
    han = len("第一天读的代码")
    assert counts == rt.ContentCounts(han=han, latin_words=1, code_lines=4, code_cells=2)


def test_exercise_lines_are_the_non_blank_non_comment_lines_between_the_markers():
    solution = (
        "def f(x):\n"
        '    """Docstring given to the learner."""\n'
        "    ### BEGIN SOLUTION\n"
        "    # a comment in the answer is not required\n"
        "    y = x + 1\n"
        "\n"
        "    return y\n"
        "    ### END SOLUTION\n"
        "\n"
        "def g():\n"
        "    ### BEGIN SOLUTION\n"
        "    return 2\n"
        "    ### END SOLUTION\n"
        "print(f(1))\n"
    )
    assert rt.solution_lines(solution) == 3
    nb = notebook(
        markdown("# Day 9 参考答案"),
        markdown("## 练习 9.1\u3000第一道"),
        code(solution),
        markdown("## 练习 9.2\u3000第二道\n\n说明里的 ## 练习 不在行首，不算"),
        code("check.day9(f)\n"),
        markdown("## 做完了"),
    )
    assert rt.count_exercises(nb) == rt.ExerciseCounts(exercises=2, lines=3)


def test_the_estimate_applies_the_rates_and_finds_the_days_solutions(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "solutions").mkdir()
    day = tmp_path / "notebooks" / "day9_something.ipynb"
    day.write_text(
        json.dumps(notebook(markdown("汉" * 300 + " word" * 240), code("a = 1\n" * 40))),
        encoding="utf-8",
    )
    (tmp_path / "solutions" / "day9_solutions.ipynb").write_text(
        json.dumps(
            notebook(
                markdown("## 练习 9.1"),
                code("### BEGIN SOLUTION\n" + "x = 1\n" * 60 + "### END SOLUTION\n"),
            )
        ),
        encoding="utf-8",
    )
    rates = rt.Rates(
        han_per_minute=150,
        latin_words_per_minute=120,
        code_lines_per_minute=8,
        minutes_per_code_cell=0.5,
        written_lines_per_minute=1,
        minutes_per_exercise=10,
    )
    e = rt.estimate_notebook(day, tmp_path, rates)
    assert e.prose_minutes == pytest.approx(300 / 150 + 240 / 120)
    assert e.code_minutes == pytest.approx(40 / 8 + 0.5)
    assert e.run_minutes == 0  # not measured
    assert e.exercise_minutes == pytest.approx(60 + 10)
    assert e.total_minutes == pytest.approx(4 + 5.5 + 70)  # 79.5 minutes
    assert e.total_hours == 1.25
    assert (e.exercise_hours, e.reading_hours) == (1.25, 0.0)
    assert rt.stated_time(e) == (
        "约 1 小时 15 分钟（阅读并运行约 0 分钟，1 道练习约 1 小时 15 分钟）"
    )
    appendix = tmp_path / "notebooks" / "appendix_x.ipynb"  # no solutions: no exercises
    appendix.write_text(json.dumps(notebook(markdown("汉" * 1500))), encoding="utf-8")
    e = rt.estimate_notebook(appendix, tmp_path, rates)
    assert (e.exercise_counts, e.total_hours) == (rt.ExerciseCounts(), 0.25)
    assert rt.stated_time(e) == "约 15 分钟（阅读并运行），没有练习"
    assert [p.name for p in rt.course_notebooks(tmp_path)] == [
        "day9_something.ipynb",
        "appendix_x.ipynb",
    ]


def test_rounding_to_the_nearest_quarter_hour():
    assert [rt.round_quarter_hours(m) for m in (0, 7.4, 7.5, 22.4, 60, 97.5, 396.4)] == [
        0,
        0,
        0.25,
        0.25,
        1,
        1.75,
        6.5,
    ]
    assert [rt.format_hours(h) for h in (3.0, 2.5, 4.25, 1.75, 0.75)] == [
        "约 3 小时",
        "约 2.5 小时",
        "约 4 小时 15 分钟",
        "约 1 小时 45 分钟",
        "约 45 分钟",
    ]


def test_the_command_prints_a_table_in_chinese(capsys):
    assert cli_main(["reading-time"]) == 0
    out = capsys.readouterr().out
    assert "| notebook | 汉字 | 英文词 |" in out and "按内容估算，不是真人计时" in out
    for e in rt.estimate_course():
        assert f"| {e.notebook} |" in out and rt.format_hours(e.total_hours) in out


# --- the stated figures -----------------------------------------------------------------------


def course_map_times(text: str) -> dict[str, str]:
    """notebook file name -> the 用时 cell of README's course map."""
    section = text.split("## 课程地图", 1)[1].split("\n## ", 1)[0]
    header = next(line for line in section.splitlines() if line.startswith("| 天 |"))
    column = [c.strip() for c in header.strip("|").split("|")].index("用时")
    times = {}
    for line in section.splitlines():
        found = re.search(r"`notebooks/([^`]+\.ipynb)`", line)
        if line.startswith("|") and found:
            times[found.group(1)] = [c.strip() for c in line.strip("|").split("|")][column]
    return times


def readme_problems(text: str) -> list[str]:
    """Every way README's course map disagrees with the estimate (empty when it agrees)."""
    stated = course_map_times(text)
    problems = []
    for e in rt.estimate_course():
        want = rt.format_hours(e.total_hours)
        if stated.get(e.notebook) != want:
            problems.append(
                f"README 课程地图里 {e.notebook} 的用时是 {stated.get(e.notebook)!r}，"
                f"按内容估算是 {want!r}（python -m handwritten_agent reading-time）"
            )
    r = rt.RATES
    for phrase in (
        f"每分钟 {r.han_per_minute:g} 个汉字、{r.latin_words_per_minute:g} 个英文词",
        f"每小时读 {r.code_lines_per_minute * 60:g} 行",
        "每格另加半分钟" if r.minutes_per_code_cell == 0.5 else f"{r.minutes_per_code_cell:g} 分钟",
        f"每小时写 {r.written_lines_per_minute * 60:g} 行、"
        f"每道另加 {r.minutes_per_exercise:g} 分钟",
        "python -m handwritten_agent reading-time",
        "不是真人计时",
    ):
        if phrase not in text:
            problems.append(f"README 课程地图下面那句话没有写 {phrase!r}")
    return problems


def test_readme_states_the_computed_times_and_the_rates():
    assert readme_problems(README.read_text(encoding="utf-8")) == []


def test_a_hand_edit_of_the_readme_is_caught():
    text = README.read_text(encoding="utf-8")
    edited = text.replace("| 约 5 小时 | `tracing` |", "| 约 4 小时 | `tracing` |", 1)
    assert edited != text
    assert any("day6_observability.ipynb" in p for p in readme_problems(edited))


STATEMENT = re.compile(r"(用时|今天需要|大约需要).*\d\s*\**\s*小时")


@pytest.mark.parametrize("path", rt.course_notebooks(), ids=lambda p: p.stem)
def test_a_notebook_states_the_computed_time(path):
    e = rt.estimate_notebook(path)
    sentence = rt.stated_time(e)
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    prose = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    assert sentence in prose[0], f"{path.name} 的第一格应当写“{sentence}”"
    # the first cell states no other figure in hours, and no other cell states the day's time
    assert not re.search(r"\d\s*\**\s*小时", prose[0].replace(sentence, "")), path.name
    for text in prose:
        for line in text.splitlines():
            if STATEMENT.search(line):
                assert sentence in line, f"{path.name}：{line}"


def test_the_run_seconds_are_the_readmes_make_live_figures():
    text = README.read_text(encoding="utf-8")
    found = re.search(r"各 notebook 的秒数：\s*(.+?)；", text, re.S)
    assert found, "README 里找不到 make live 各 notebook 的秒数"
    labels = {"附录“上线之后”": "appendix_after_launch.ipynb", "附录 MCP": "appendix_mcp.ipynb"}
    stated = {}
    for label, seconds in re.findall(r"(Day \d|附录“上线之后”|附录 MCP) (\d+)", found.group(1)):
        day = re.fullmatch(r"Day (\d)", label)
        name = (
            next(p.name for p in rt.course_notebooks() if p.name.startswith(f"day{day.group(1)}_"))
            if day
            else labels[label]
        )
        stated[name] = int(seconds)
    assert stated == rt.RUN_SECONDS
