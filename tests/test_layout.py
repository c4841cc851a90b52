"""The package's layout: the teaching code never imports the course's machinery (``course/``).

What a learner reads (the loop, the parser, the registry, memory, permissions, tracing, the service)
must stand on its own; the simulator, the exercises, the benchmarks and the command line reach the
teaching code, never the other way round. ``connect()`` finds the course's server and
``python -m handwritten_agent`` finds the command line through entry points for that reason.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import handwritten_agent

PACKAGE = Path(handwritten_agent.__file__).parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(path: Path) -> set[str]:
    """Every module an ``import`` or ``from … import`` in ``path`` names, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _teaching_files() -> list[Path]:
    course = PACKAGE / "course"
    return [path for path in PACKAGE.rglob("*.py") if course not in path.parents]


def test_the_import_reader_sees_relative_imports_into_course():
    # the reader itself must be able to fail: course/cli imports the teaching code relatively
    imported = _imported(PACKAGE / "course" / "cli" / "__init__.py")
    assert any(name.startswith("handwritten_agent.") for name in imported), sorted(imported)


def test_no_teaching_module_imports_the_course_machinery():
    files = _teaching_files()
    assert len(files) > 50, "the walk found too few files to mean anything"
    crossings = {
        str(path.relative_to(PACKAGE.parent)): sorted(
            name
            for name in _imported(path)
            if name == "handwritten_agent.course" or name.startswith("handwritten_agent.course.")
        )
        for path in files
    }
    crossings = {path: names for path, names in crossings.items() if names}
    assert not crossings, f"教学代码导入了 course/ 里的机制：{crossings}"


def test_python_dash_m_finds_the_command_line_through_its_entry_point():
    done = subprocess.run(
        [sys.executable, "-m", "handwritten_agent", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "手写 Agent 课程的命令行工具" in done.stdout
