"""The MCP appendix's exercise: generated from its solutions notebook, its check passes on the
solution, says "还没有完成" on the placeholder, never crashes on an odd value, and the untouched
exercises notebook fails only at its check cell. (Its wrong and right answers are in
tests/data/exercise_mutations/appendix_mcp_adapter/, run by test_exercise_mutations.py.)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import nbformat
import pytest

from handwritten_agent.course.exercises import build, check
from handwritten_agent.course.exercises.check.framework import INTERNAL

pytest.importorskip("mcp", reason="没有安装 mcp（MCP 官方 SDK），跳过 MCP 附录练习的测试")

ROOT = Path(__file__).resolve().parents[1]
SOLUTION = ROOT / "solutions" / "appendix_mcp_solutions.ipynb"
EXERCISE = ROOT / "exercises" / "appendix_mcp_exercises.ipynb"


def _is_check(cell: dict[str, Any]) -> bool:
    return "check" in cell.get("metadata", {}).get("tags", [])


def _namespace(path: Path) -> dict[str, Any]:
    """Run the notebook's code cells except the check cells (our own notebook's source)."""
    namespace: dict[str, Any] = {"__name__": f"notebook_{path.stem}"}
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code" and not _is_check(cell):
            source = "".join(cell["source"])
            exec(compile(source, path.name, "exec"), namespace)  # noqa: S102 - our own notebook
    return namespace


def test_the_exercises_notebook_is_what_the_generator_makes():
    assert EXERCISE.read_bytes() == build.render(SOLUTION).encode("utf-8"), (
        "run build(root, only=['appendix_mcp']) from handwritten_agent.course.exercises.build"
    )
    cells = json.loads(SOLUTION.read_text(encoding="utf-8"))["cells"]
    checks = ["".join(cell["source"]).strip() for cell in cells if _is_check(cell)]
    assert checks == ["check.appendix_mcp_adapter(adapt_server)"]


def test_build_can_write_one_notebook_and_orders_days_first(tmp_path):
    (tmp_path / "solutions").mkdir()
    shutil.copy(SOLUTION, tmp_path / "solutions" / SOLUTION.name)
    shutil.copy(ROOT / "solutions" / "day1_solutions.ipynb", tmp_path / "solutions")
    assert [pair.solution.name for pair in build.pairs(tmp_path)] == [
        "day1_solutions.ipynb",
        SOLUTION.name,
    ]
    written = build.build(tmp_path, only=["appendix_mcp"])
    assert written == [tmp_path / "exercises" / EXERCISE.name]
    assert not (tmp_path / "exercises" / "day1_exercises.ipynb").exists()
    assert build.stale(tmp_path, only=["appendix_mcp"]) == []
    assert build.stale(tmp_path) == [tmp_path / "exercises" / "day1_exercises.ipynb"]


def test_the_check_passes_on_the_solution(capsys):
    check.appendix_mcp_adapter(_namespace(SOLUTION)["adapt_server"])
    out = capsys.readouterr().out
    assert out.count("✅") >= 15 and "🎉 appendix_mcp_adapter：全部" in out


def test_the_check_fails_on_the_placeholder():
    with pytest.raises(check.ExerciseFailed) as failure:
        check.appendix_mcp_adapter(_namespace(EXERCISE)["adapt_server"])
    assert "还没有完成" in str(failure.value) and "# YOUR CODE HERE" in str(failure.value)


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("repr")

    __str__ = __repr__

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"getattr {name}")


ODD_VALUES = [None, 0, "", "x", [], {}, ("final", None), _Unprintable()]


def test_an_odd_value_is_a_readable_failure():
    for value in ODD_VALUES:
        with pytest.raises(check.ExerciseFailed) as failure:
            check.appendix_mcp_adapter(lambda *args, value=value, **kwargs: value)
        message = str(failure.value)
        assert INTERNAL not in message and "用例「" in message, (type(value).__name__, message)
    with pytest.raises(check.ExerciseFailed, match="不带括号"):
        check.appendix_mcp_adapter("not a function")


def test_an_odd_tool_result_is_a_readable_failure():
    """The tools' own return values are learner values too."""
    from handwritten_agent.tools import Tool, ToolRegistry

    solution = _namespace(SOLUTION)["adapt_server"]
    for value in (None, "文字", {"success": True}, _Unprintable()):

        def adapt(connection, server, timeout, value=value):
            made = solution(connection, server, timeout)
            return ToolRegistry(
                [
                    Tool(
                        name=item.name,
                        description=item.description,
                        parameters=item.parameters,
                        fn=lambda **arguments: value,
                        level=item.level,
                        side_effects=item.side_effects,
                        untrusted=item.untrusted,
                        metadata=item.metadata,
                    )
                    for item in made
                ]
            )

        with pytest.raises(check.ExerciseFailed) as failure:
            check.appendix_mcp_adapter(adapt)
        assert INTERNAL not in str(failure.value), str(failure.value)


def test_a_closed_in_memory_connection_raises_a_chinese_wire_error():
    from handwritten_agent.mcp_tools.connection import SDKConnection
    from handwritten_agent.mcp_tools.server import build_server, course_registry
    from handwritten_agent.mcp_tools.wire import WireError

    connection = SDKConnection(server=build_server(course_registry("day3")), timeout=30)
    try:
        names = [entry["name"] for entry in connection.list_tools()]
        assert names == course_registry("day3").names()
        answer = connection.call_tool("calculator", {"expression": "17 * 9"})
        assert answer["content"][0]["text"] == "153" and answer["isError"] is False
    finally:
        connection.close()
    with pytest.raises(WireError, match="关闭"):
        connection.call_tool("calculator", {"expression": "1 + 1"})
    with pytest.raises(WireError, match="关闭"):
        connection.list_tools()


def test_the_untouched_exercise_fails_only_at_its_check_cell(monkeypatch):
    from nbclient import NotebookClient

    notebook = nbformat.reads(build.render(SOLUTION), as_version=4)
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(EXERCISE.parent)}},
    ).execute()
    failed = [
        index
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and any(out.output_type == "error" for out in cell.outputs)
    ]
    checks = [index for index, cell in enumerate(notebook.cells) if _is_check(cell)]
    assert checks and failed == checks
    error = next(out for out in notebook.cells[checks[0]].outputs if out.output_type == "error")
    assert error.ename == "ExerciseFailed" and "还没有完成" in error.evalue, error.evalue
