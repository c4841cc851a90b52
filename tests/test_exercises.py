"""Exercises and solutions come from one source, and every check tells right from wrong.

- the generator: markers, indentation, markdown regions, errors, deterministic bytes;
- ``exercises/`` is byte-for-byte what the generator makes from ``solutions/``;
- every checker passes on the solution's code and fails on the placeholder (its plausible wrong
  answers and alternative right ones are data in tests/data/exercise_mutations/, run by
  test_exercise_mutations.py);
- the untouched exercise notebooks, executed, fail exactly at their check cells and nowhere else.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

from handwritten_agent.course.exercises import build, check

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------------------------


def _notebook(*cells: tuple[str, str], **cell_metadata: Any) -> dict[str, Any]:
    made = []
    for index, (kind, source) in enumerate(cells):
        cell: dict[str, Any] = {
            "cell_type": kind,
            "id": f"random-{index}-{os.getpid()}",
            "metadata": dict(cell_metadata),
            "source": source,
        }
        if kind == "code":
            cell.update(
                execution_count=7 + index,
                outputs=[{"output_type": "stream", "name": "stdout", "text": "old output\n"}],
            )
        made.append(cell)
    return {
        "cells": made,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python", "version": "3.11.7"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def test_code_region_becomes_placeholder_at_the_begin_lines_indentation():
    source = (
        "def extract(text: str) -> dict:\n"
        '    """Docstring stays."""\n'
        "    ### BEGIN SOLUTION\n"
        "    value = text.strip()\n"
        "    return {'v': value}\n"
        "    ### END SOLUTION\n"
        "\n"
        "print('kept')"
    )
    assert (
        build.strip_code_solutions(source) == "def extract(text: str) -> dict:\n"
        '    """Docstring stays."""\n'
        "    # YOUR CODE HERE\n"
        "    raise NotImplementedError()\n"
        "\n"
        "print('kept')"
    )


def test_several_regions_at_different_depths_and_top_level():
    source = (
        "class Guard:\n"
        "    def check(self):\n"
        "        ### BEGIN SOLUTION\n"
        "        return 1\n"
        "        ### END SOLUTION\n"
        "\n"
        "### BEGIN SOLUTION\n"
        "answer = 42\n"
        "### END SOLUTION"
    )
    out = build.strip_code_solutions(source)
    assert out.splitlines() == [
        "class Guard:",
        "    def check(self):",
        "        # YOUR CODE HERE",
        "        raise NotImplementedError()",
        "",
        "# YOUR CODE HERE",
        "raise NotImplementedError()",
    ]
    assert "return 1" not in out and "answer = 42" not in out


def test_markers_tolerate_trailing_spaces_and_crlf_but_not_other_text():
    assert (
        build.strip_code_solutions(
            "x = 1\n  ### BEGIN SOLUTION  \r\n  y = 2\r\n  ### END SOLUTION\r\n"
        )
        == "x = 1\n  # YOUR CODE HERE\n  raise NotImplementedError()"
    )
    # a marker with text after it is not a marker: nothing is stripped
    text = "### BEGIN SOLUTION here\ny = 2\n### END SOLUTION is not alone"
    assert build.strip_code_solutions(text) == text


@pytest.mark.parametrize(
    "source, fragment",
    [
        ("### BEGIN SOLUTION\nx = 1\n", "line 1: `### BEGIN SOLUTION` is never closed"),
        ("x = 1\n### END SOLUTION\n", "line 2: `### END SOLUTION` without a `### BEGIN SOLUTION`"),
        (
            "### BEGIN SOLUTION\n  ### BEGIN SOLUTION\n  ### END SOLUTION\n### END SOLUTION",
            "line 2: nested",
        ),
    ],
)
def test_unbalanced_or_nested_code_markers_are_errors(source, fragment):
    with pytest.raises(build.MarkerError, match="demo.ipynb, cell 3") as info:
        build.strip_code_solutions(source, where="demo.ipynb, cell 3")
    assert fragment in str(info.value)


def test_markdown_region_is_replaced_inline_and_across_lines():
    source = (
        "**答：** <!-- BEGIN SOLUTION -->因为超时是连接错误的子类，\n要先判断它。<!-- END SOLUTION"
        " -->\n\n下一段保留。"
    )
    assert (
        build.strip_markdown_solutions(source) == "**答：** （在这里写下你的答案）\n\n下一段保留。"
    )
    assert (
        build.strip_markdown_solutions("a <!--BEGIN SOLUTION-->x<!--  END SOLUTION  --> b")
        == "a （在这里写下你的答案） b"
    )


@pytest.mark.parametrize(
    "source, fragment",
    [
        ("<!-- BEGIN SOLUTION --> no end", "never closed"),
        ("text\n<!-- END SOLUTION -->", "line 2: `<!-- END SOLUTION -->` without"),
        ("<!-- BEGIN SOLUTION -->a<!-- BEGIN SOLUTION -->b<!-- END SOLUTION -->", "nested"),
    ],
)
def test_unbalanced_markdown_markers_are_errors(source, fragment):
    with pytest.raises(build.MarkerError, match="x.ipynb, cell 1") as info:
        build.strip_markdown_solutions(source, where="x.ipynb, cell 1")
    assert fragment in str(info.value)


def test_make_exercise_clears_outputs_retitles_and_keeps_only_tags():
    notebook = _notebook(
        ("markdown", "# Day 9 参考答案：标题\n\n正文里的参考答案不变。"),
        ("code", "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"),
        ("code", "check.day9(f)"),
        tags=["check"],
        collapsed=True,
        execution={"iopub.status.busy": "2026-01-01T00:00:00Z"},
    )
    exercise = build.make_exercise(copy.deepcopy(notebook), "day9_solutions.ipynb")
    title, solution, check_cell = exercise["cells"]
    assert "".join(title["source"]).startswith("# Day 9 练习：标题\n")
    assert "正文里的参考答案不变" in "".join(title["source"])
    assert (
        "".join(solution["source"])
        == "def f():\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    )
    for cell in (solution, check_cell):
        assert cell["outputs"] == [] and cell["execution_count"] is None
    assert all(cell["metadata"] == {"tags": ["check"]} for cell in exercise["cells"])
    assert [cell["id"] for cell in exercise["cells"]] == ["cell-01", "cell-02", "cell-03"]
    assert exercise["metadata"] == build.NOTEBOOK_METADATA
    nbformat.validate(nbformat.from_dict(exercise))  # a valid nbformat 4.5 notebook


def test_marker_error_names_notebook_and_cell():
    notebook = _notebook(
        ("markdown", "# T"), ("code", "x = 1"), ("code", "### BEGIN SOLUTION\ny = 1")
    )
    with pytest.raises(
        build.MarkerError, match=r"solutions/day5_solutions.ipynb, cell 3 \(code\), line 1"
    ):
        build.make_exercise(notebook, "solutions/day5_solutions.ipynb")


def test_output_is_deterministic_whatever_the_ids_metadata_and_source_shape(tmp_path):
    first = _notebook(
        ("markdown", "# Day 1 参考答案"),
        ("code", "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"),
    )
    second = copy.deepcopy(first)
    for index, cell in enumerate(second["cells"]):
        cell["id"] = f"other-{index}"
        cell["source"] = cell["source"].splitlines(
            keepends=True
        )  # list-of-lines form, as Jupyter saves it
        cell["metadata"]["scrolled"] = True
    second["metadata"]["language_info"]["version"] = "3.12.1"
    second["metadata"]["widgets"] = {"state": {}}
    a, b = (
        tmp_path / "solutions" / "a_solutions.ipynb",
        tmp_path / "solutions" / "b_solutions.ipynb",
    )
    a.parent.mkdir()
    a.write_text(json.dumps(first), encoding="utf-8")
    b.write_text(json.dumps(second, indent=4), encoding="utf-8")
    text = build.render(a)
    assert text == build.render(b)
    assert text.endswith("}\n") and '\n "cells": [\n' in text  # one-space indent, trailing newline
    assert json.loads(text)["cells"][1]["source"] == [
        "def f():\n",
        "    # YOUR CODE HERE\n",
        "    raise NotImplementedError()",
    ]
    assert (
        text == nbformat.writes(nbformat.reads(text, as_version=4)) + "\n"
    )  # the bytes nbformat itself would write


def test_build_and_check_cli(tmp_path):
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    (solutions / "day1_solutions.ipynb").write_text(
        json.dumps(_notebook(("markdown", "# Day 1 参考答案"), ("code", "x = 1"))), encoding="utf-8"
    )
    run = lambda *args: subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent.course.exercises",
            *args,
            "--root",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    stale = run("check")
    assert stale.returncode == 1 and "exercises/day1_exercises.ipynb" in stale.stderr
    built = run("build")
    assert built.returncode == 0, built.stderr
    target = tmp_path / "exercises" / "day1_exercises.ipynb"
    assert json.loads(target.read_text(encoding="utf-8"))["cells"][0]["source"] == ["# Day 1 练习"]
    assert run("check").returncode == 0
    target.write_text(
        target.read_text(encoding="utf-8").replace("练习", "hand edit"), encoding="utf-8"
    )
    edited = run("check")
    assert edited.returncode == 1 and "day1_exercises.ipynb" in edited.stderr
    (solutions / "day1_solutions.ipynb").write_text(
        json.dumps(_notebook(("code", "### END SOLUTION"))), encoding="utf-8"
    )
    broken = run("build")
    assert broken.returncode == 1 and "day1_solutions.ipynb, cell 1 (code), line 1" in broken.stderr


def test_build_keeps_a_learners_work_unless_forced(tmp_path):
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    source = _notebook(
        ("markdown", "# Day 1 参考答案"),
        ("code", "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"),
    )
    (solutions / "day1_solutions.ipynb").write_text(json.dumps(source), encoding="utf-8")
    (solutions / "day2_solutions.ipynb").write_text(json.dumps(source), encoding="utf-8")
    assert len(build.build(tmp_path)) == 2
    target = exercises / "day1_exercises.ipynb"
    fresh = target.read_text(encoding="utf-8")
    assert not build.has_learner_work(target)

    filled = fresh.replace("raise NotImplementedError()", "return 1")  # answered, not yet run
    target.write_text(filled, encoding="utf-8")
    assert build.has_learner_work(target)
    (solutions / "day2_solutions.ipynb").write_text(
        json.dumps(_notebook(("markdown", "# Day 2 参考答案"), ("code", "y = 2"))), encoding="utf-8"
    )
    with pytest.raises(build.LearnerWork, match="make check-exercises") as info:
        build.build(tmp_path)
    assert info.value.paths == [target] and info.value.written == [
        exercises / "day2_exercises.ipynb"
    ]
    assert target.read_text(encoding="utf-8") == filled  # untouched

    run_once = json.loads(fresh)
    run_once["cells"][1]["execution_count"] = 1  # run in JupyterLab and saved, even if unchanged
    target.write_text(json.dumps(run_once), encoding="utf-8")
    assert build.has_learner_work(target)
    assert build.build(tmp_path, force=True) == [target]
    assert target.read_text(encoding="utf-8") == fresh


def test_exercises_directory_is_exactly_what_the_generator_makes():
    pairs = build.pairs(ROOT)
    appendices = sorted(
        path.name for path in (ROOT / "solutions").glob("appendix_*_solutions.ipynb")
    )
    assert [pair.solution.name for pair in pairs] == [
        f"day{day}_solutions.ipynb" for day in DAYS
    ] + appendices and DAYS[:3] == [1, 2, 3]
    with_answers = []
    for pair in pairs:
        assert pair.exercise.exists(), (
            f"{pair.exercise} is missing: run `python -m handwritten_agent.course.exercises build`"
        )
        if build.has_learner_work(pair.exercise) and not os.environ.get("CI"):
            with_answers.append(
                pair.exercise.name
            )  # a learner's answers: not compared on their machine (CI always compares)
            continue
        assert pair.exercise.read_bytes() == build.render(pair.solution).encode("utf-8"), (
            f"{pair.exercise} is not what the generator makes from {pair.solution}. If you changed"
            " solutions/, run `python -m handwritten_agent.course.exercises build` and commit the"
            " result. If you are a learner who filled in the exercises, this is expected: check"
            " your answers with `make check-exercises` instead."
        )
    assert build.orphans(ROOT) == []
    if with_answers:
        pytest.skip(
            f"{', '.join(with_answers)} hold your answers, so they were not compared with the"
            " generator's output (check them with `make check-exercises`); CI (CI=true) compares"
            " every notebook."
        )


# ---------------------------------------------------------------------------------------------
# The checkers: pass on the solution, fail on the placeholder and on plausible wrong answers
# ---------------------------------------------------------------------------------------------


_CHECK_CALL = re.compile(r"^check\.(day\d_\w+)\((\w+(?:, \w+)*)\)\s*$")


def _is_check_cell(cell: dict[str, Any]) -> bool:
    return "check" in cell.get("metadata", {}).get("tags", [])


def _source(cell: dict[str, Any]) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _check_calls(path: Path) -> list[tuple[str, str]]:
    """(checker, argument name) of every check cell, in order."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    calls = []
    for cell in notebook["cells"]:
        if _is_check_cell(cell):
            match = _CHECK_CALL.match(_source(cell).strip())
            assert match, (
                f"{path.name}: a check cell must be exactly `check.dayN_name(obj)`"
                f" (or `(obj, other)`), got {_source(cell)!r}"
            )
            calls.append((match.group(1), tuple(match.group(2).split(", "))))
    return calls


_NAMESPACES: dict[Path, dict[str, Any]] = {}


def _namespace(path: Path) -> dict[str, Any]:
    """Run a notebook's code cells except the check cells, like a kernel would, and keep the names
    they define.

    Our own notebooks' source is executed here, never model output.
    """
    if path not in _NAMESPACES:
        namespace: dict[str, Any] = {"__name__": f"notebook_{path.stem}"}
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code" and not _is_check_cell(cell):
                exec(compile(_source(cell), (f"{path.name}"), "exec"), namespace)  # noqa: S102 - our own notebook
        _NAMESPACES[path] = namespace
    return _NAMESPACES[path]


DAYS = sorted(
    int(re.fullmatch(r"day(\d)_solutions\.ipynb", path.name).group(1))
    for path in (ROOT / "solutions").glob("day*_solutions.ipynb")
)
ALL_CHECKS = [
    (day, checker, argument)
    for day in DAYS
    for checker, argument in _check_calls(ROOT / "solutions" / f"day{day}_solutions.ipynb")
]
CHECKERS = [checker for _, checker, _ in ALL_CHECKS]


def test_every_checker_has_a_check_cell():
    """(Its wrong and alternative answers are in tests/data/exercise_mutations/, run by
    test_exercise_mutations.py.)
    """
    public = sorted(
        name
        for name in dir(check)
        if re.fullmatch(r"day\d_\w+", name) and callable(getattr(check, name))
    )
    assert sorted(CHECKERS) == public
    per_day = [sum(1 for day, _, _ in ALL_CHECKS if day == d) for d in DAYS]
    assert all(3 <= count <= 5 for count in per_day), per_day


@pytest.mark.parametrize("day, checker, argument", ALL_CHECKS, ids=CHECKERS)
def test_checker_passes_on_the_solution(day, checker, argument, capsys):
    namespace = _namespace(ROOT / "solutions" / f"day{day}_solutions.ipynb")
    capsys.readouterr()
    getattr(check, checker)(*(namespace[name] for name in argument))
    out = capsys.readouterr().out
    assert out.count("✅") >= 4 and f"🎉 {checker}：全部" in out


@pytest.mark.parametrize("day, checker, argument", ALL_CHECKS, ids=CHECKERS)
def test_checker_fails_on_the_placeholder(day, checker, argument):
    namespace = _namespace(ROOT / "exercises" / f"day{day}_exercises.ipynb")
    with pytest.raises(check.ExerciseFailed) as info:
        getattr(check, checker)(*(namespace[name] for name in argument))
    assert isinstance(info.value, AssertionError)  # nbval and pytest mark the cell failed
    assert "还没有完成" in str(info.value) and "# YOUR CODE HERE" in str(info.value)


def test_checker_asks_for_the_function_not_its_result():
    with pytest.raises(check.ExerciseFailed, match="不带括号"):
        check.day3_unknown_tool_message("not a function")


# ---------------------------------------------------------------------------------------------
# The untouched exercise notebooks, executed as a learner would: only the check cells fail
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("day", DAYS)
def test_untouched_exercises_fail_exactly_at_their_check_cells(day, monkeypatch):
    from nbclient import NotebookClient

    path = ROOT / "exercises" / f"day{day}_exercises.ipynb"
    # the generator's output (which the test above proves is what exercises/ holds), so a learner's
    # answers don't matter
    notebook = nbformat.reads(
        build.render(ROOT / "solutions" / f"day{day}_solutions.ipynb"), as_version=4
    )
    monkeypatch.setenv("LLM_PROVIDER", "offline")  # inherited by the kernel
    NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        allow_errors=True,  # "python3" runs this interpreter
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()

    failed = [
        index
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code"
        and any(output.output_type == "error" for output in cell.outputs)
    ]
    check_cells = [
        index
        for index, cell in enumerate(notebook.cells)
        if "check" in cell.metadata.get("tags", [])
    ]
    assert check_cells and failed == check_cells
    for index in check_cells:
        error = next(
            output for output in notebook.cells[index].outputs if output.output_type == "error"
        )
        assert error.ename == "ExerciseFailed" and "还没有完成" in error.evalue, error.evalue
