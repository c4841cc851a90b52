"""Exercises for Days 1–3: the generator of ``exercises/`` and the checkers its check cells call.

- ``build``  turns ``solutions/dayN_solutions.ipynb`` into ``exercises/dayN_exercises.ipynb`` by
             replacing each ``### BEGIN SOLUTION`` … ``### END SOLUTION`` region with a placeholder
             (``python -m handwritten_agent.course.exercises build``; ``check`` reports a stale
             ``exercises/``)
- ``check``  one checker per exercise, e.g. ``check.day2_extract_json(extract_json)``: runs the
             learner's code on several cases (against the offline simulator when a model is needed),
             prints each passed case, and raises ``ExerciseFailed`` with a Chinese explanation
             otherwise

``check`` is imported lazily (it pulls in the model client); importing this package stays cheap.
Left out: grading and scores — a check passes or says what to fix.
"""

from __future__ import annotations

from typing import Any

__all__ = ["build", "check"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
