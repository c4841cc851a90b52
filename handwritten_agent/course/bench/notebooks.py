"""The offline suite's cost per notebook: ``pytest --nbval`` on each notebook and solution, timed.

Each notebook is checked the way ``make test`` checks it (offline simulator, the same sanitizer
file), in a fresh ``pytest`` process. The floor is the same command on a notebook with a single
``pass`` cell: pytest starting, a kernel starting and stopping — what any notebook costs before its
first real cell.

Left out: per-cell timings (``pytest --durations`` shows them), and ``exercises/`` (they hold a
learner's own answers).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .registry import Context, Figure, Stats, Unavailable, benchmark

TIMEOUT_S = 600  # one notebook; a hang is reported, not waited on forever
FLOOR_IS = "the same command on a one-cell notebook (pytest + kernel start-up)"
FOLDERS = ("notebooks", "solutions")


def course_notebooks(root: Path) -> list[Path]:
    """The notebooks ``make test`` compares: notebooks/ then solutions/, each sorted by name."""
    return [path for folder in FOLDERS for path in sorted((root / folder).glob("*.ipynb"))]


def _empty_notebook(folder: Path) -> Path:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell("pass"))
    notebook.metadata["kernelspec"] = {
        "display_name": "Python 3",
        "language": "python",
        "name": "python3",
    }
    path = folder / "floor.ipynb"
    nbformat.write(notebook, path)
    return path


def _nbval(root: Path, notebook: Path) -> tuple[float, int]:
    """Seconds for one ``pytest --nbval`` run on ``notebook``, and pytest's exit code."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(root),
        "--nbval",
        "--nbval-current-env",
        str(notebook),
    ]
    sanitize = root / "tests" / "nbval_sanitize.cfg"
    if sanitize.is_file():
        command[-1:-1] = ["--nbval-sanitize-with", str(sanitize)]
    env = {**os.environ, "LLM_PROVIDER": "offline"}
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=TIMEOUT_S,
            check=False,
        )
        code = done.returncode
    except subprocess.TimeoutExpired:
        code = -1
    return time.perf_counter() - start, code


@benchmark("nbval", title="nbval time per notebook vs a one-cell notebook", order=90)
def nbval_per_notebook(ctx: Context) -> list[Figure]:
    if ctx.root is None or not course_notebooks(ctx.root):
        raise Unavailable(
            "no notebooks/ or solutions/ folder found: run it from the course folder (or pass"
            " --root)"
        )
    try:
        import nbformat  # noqa: F401
        import nbval  # noqa: F401
    except ModuleNotFoundError:
        raise Unavailable(
            'nbval is not installed: pip install -e ".[dev]" (make install does it)'
        ) from None

    notebooks = course_notebooks(ctx.root)
    half = len(notebooks) // 2
    # the floor before, between and after the notebooks: a slow spell on a shared machine touches
    # both sides
    plan: list[Path | None] = [None, *notebooks[:half], None, *notebooks[half:], None]
    floor_times: list[float] = []
    ours: dict[Path, tuple[list[float], list[int]]] = {path: ([], []) for path in notebooks}
    with (
        tempfile.TemporaryDirectory(prefix="bench-nbval-") as tmp,
        ctx.progress(total=ctx.runs * len(plan), desc="nbval") as bar,
    ):
        empty = _empty_notebook(Path(tmp))
        for _ in range(ctx.runs):
            for path in plan:
                seconds, code = _nbval(ctx.root, path or empty)
                if path is None:
                    if code != 0:
                        raise RuntimeError(
                            f"pytest --nbval failed on a one-cell notebook (exit {code}): is"
                            " ipykernel installed?"
                        )
                    floor_times.append(seconds)
                else:
                    ours[path][0].append(seconds)
                    ours[path][1].append(code)
                bar.update(1)

    floor = Stats.of(floor_times)
    figures = []
    for path, (times, codes) in ours.items():
        failed = [code for code in codes if code != 0]
        outcome = (
            "passed"
            if not failed
            else f"FAILED (pytest exit {failed[0]}{', timed out' if -1 in failed else ''})"
        )
        figures.append(
            Figure(
                benchmark="nbval",
                measure=f"nbval {path.relative_to(ctx.root)}",
                unit="s",
                ours=Stats.of(times),
                floor=floor,
                floor_is=FLOOR_IS,
                note=outcome,
            )
        )
    totals = [sum(times[i] for times, _ in ours.values()) for i in range(ctx.runs)]
    figures.append(
        Figure(
            benchmark="nbval",
            measure=f"nbval, all {len(notebooks)} notebooks one by one",
            unit="s",
            ours=Stats.of(totals),
            floor=Stats.of([Stats.of(floor_times).median * len(notebooks)]),
            floor_is=f"{len(notebooks)} × the one-cell notebook",
            note="one pytest process per notebook; make test runs them in one process",
        )
    )
    return figures
