"""No notebook states a figure in its prose that none of its outputs shows (see
tests/prose_figures.py for the rule).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from prose_figures import stale_figures

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "solutions").glob("*.ipynb")
)


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text.splitlines(keepends=True)}


def code(source: str, printed: str) -> dict:
    return {
        "cell_type": "code",
        "metadata": {},
        "execution_count": 1,
        "source": source,
        "outputs": [{"output_type": "stream", "name": "stdout", "text": printed}],
    }


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_in_the_prose_is_shown_by_an_output(path):
    stale = stale_figures(load(path))
    assert not stale, "\n".join(str(s) for s in stale)


def test_a_planted_stale_figure_is_caught_in_a_real_notebook():
    notebook = copy.deepcopy(load(ROOT / "notebooks" / "day3_native_tools_react_loop.ipynb"))
    notebook["cells"].append(markdown("在开发机上测得中位数 123.4 ms，\n比上一版快 37%。"))
    figures = [s.figure for s in stale_figures(notebook)]
    assert figures == ["123.4 ms", "37%"]


def test_a_figure_an_output_shows_passes_and_a_changed_one_does_not():
    notebook = {
        "cells": [
            code("print(run())", "p50 = 0.54 s，共 1,200 token\n"),
            markdown("测得的中位数是 0.54 秒，\n一共约 1200 个 token。"),
        ]
    }
    assert stale_figures(notebook) == []
    notebook["cells"][1] = markdown(
        "测得的中位数是 0.61 秒。"
    )  # the prose went stale after a re-run
    assert [s.figure for s in stale_figures(notebook)] == ["0.61 秒"]


def test_settings_written_in_code_may_be_quoted_but_not_as_measurements():
    notebook = {
        "cells": [
            code("agent = Agent(client, tools, max_seconds=0.5)", ""),
            markdown("超时设成 0.5 秒。"),
        ]
    }
    assert stale_figures(notebook) == []
    notebook["cells"][1] = markdown(
        "测得平均 0.5 秒。"
    )  # a measurement must be printed, not only configured
    assert [s.figure for s in stale_figures(notebook)] == ["0.5 秒"]


def test_figures_inside_code_spans_are_not_prose():
    assert stale_figures({"cells": [markdown("平均耗时见 `bench --n 500 ms`。")]}) == []
