"""Checkers for the exercises: one function per exercise, called from its check cell, one module per day.

    from handwritten_agent.exercises import check
    check.day2_extract_json(extract_json)

A checker runs the learner's code on several cases — against the offline course simulator when a
model is needed, so the result is the same on every machine — and prints one ``✅`` line per case
that passes. At the first case that fails it raises ``ExerciseFailed`` (an ``AssertionError``, so
nbval and pytest mark the cell failed) with a message in Chinese: which case, what was expected,
what came back, and a hint. The ``raise NotImplementedError()`` left in an unfinished exercise
becomes "还没有完成".

Every checker fails on the placeholder and on the plausible wrong answers listed in
``tests/data/exercise_mutations/`` (run by ``tests/test_exercise_mutations.py``), and passes on the
published solution and on the alternative right answers kept there.

A new day adds ``dayN.py`` here (its checkers named ``dayN_*``, listed in its ``__all__``) and one line
below; its wrong and right answers go to ``tests/data/exercise_mutations/<checker>/``.

Left out: scores and partial credit — an exercise passes or says what to fix. The checkers always use
the offline simulator, even when ``.env`` names a real provider, because a real model's answers vary.
"""

from __future__ import annotations

from .day1 import *  # noqa: F401,F403
from .day2 import *  # noqa: F401,F403
from .day3 import *  # noqa: F401,F403
from .day5 import *  # noqa: F401,F403
from .day6 import *  # noqa: F401,F403
from .framework import NOT_DONE, ExerciseFailed, offline_base_url, offline_client  # noqa: F401
