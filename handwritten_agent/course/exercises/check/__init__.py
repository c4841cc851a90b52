"""Checkers for the exercises: one function per exercise, called from its check cell, one module per
day.

    from handwritten_agent.course.exercises import check
    check.day2_extract_json(extract_json)

A checker runs the learner's code on several cases — against the offline course simulator when a
model is needed, so the result is the same on every machine — and prints one ``✅`` line per case
that passes. At the first case that fails it raises ``ExerciseFailed`` (an ``AssertionError``, so
nbval and pytest mark the cell failed) with a message in Chinese: which case (用例), the input (输
入), what was expected (期望), what came back (实际) and a hint (提示). The ``raise
NotImplementedError()`` left in an unfinished exercise becomes "还没有完成".

The rule every exercise's check follows (Days 1–3 do; every later day must):

1. **Every dimension the task text names is tested with at least two values, one of them an edge.**
   List the dimensions first — inputs, options and their defaults, error kinds, counts, order,
   instances, languages — then pick values: empty / one / many; the default and a non-default
   (``max_attempts`` 1, 2, 5 — not only 3); every error class the text names (404 *and* 500, not
   only 500); parallel calls, not one; two instances of a class, not one; inputs that break the
   usual shortcuts (escapes, ``true/false/null``, braces inside strings, a prefix of another name, a
   currency pair not ending in CNY, a call whose whole arguments arrive in the first fragment, a
   failed tool result that must reach the model). If the task text does not say what an edge should
   do, make the text say it before testing it.
2. **What the task forbids is detected and named in the hint**: ``eval``/``exec`` (``_Check.forbid``
   reads the bytecode of the learner's function and of the helpers it calls in the same notebook),
   a library the task says not to use, changing the caller's list or dict (``_Check.unchanged`` on a
   deep copy), state shared between instances (two instances in one check).
3. **Every learner value is read behind a type guard.** A value of the wrong type is an
   ``ExerciseFailed`` that names the type (``typed``), never an exception inside the checker. The
   ``exercise`` decorator is only the last guard: its "检查程序自身出错" message means a checker
   bug, and the mutation test fails on it.
4. **Hints are computed from the failure**: the path where a value differs (``value_difference``),
   the differing part of a long text (``text_difference``), the header, the missing id, the wrong
   type, the direction (a rate that is the inverse), the count of calls against the bound — not one
   fixed sentence per case. Long values are shown as the part that differs (``excerpt``-style), not
   as the first 300 characters.
5. **Facts, not wording**: where a check reads the simulator's answer it looks for the numbers and
   names, so rewording the simulator never breaks a check.
6. **Judge behaviour, accept any wording.** Where the learner writes words for a model (a tool
   prompt, a message for an unknown tool, an error text, a summary prompt), the check asks what a
   model does with them — feed them to the simulator and watch the call it makes, the tools it reads
   back, whether it stops — and reads only the facts the behaviour depends on (the names offered,
   the figures reported, the currency given as an example). Where a meaning must be read from
   Chinese (“there are no tools”, “answer directly”), read it as a meaning: a negation and what it
   covers in the same clause (``reading.py``), never a list of phrasings. A correct answer in other
   words, another layout or another order must pass; keep right answers in other styles as data
   (rule 8), at least two where a check reads words.
7. **期望 and 实际 show the difference, and the hint names the mistake detected.** Two values that
   print alike (``[]`` and ``[[]]``, tuples that leave out the differing field, two classes with one
   name) are shown with the part that differs; when two mistakes give the same result on a case, the
   hint is chosen by trying the learner's code once more (another budget, the number alone, a fresh
   instance) — never the hint of another mistake. The mutation test fails when 期望 and 实际 print
   alike.
8. **Wrong and right answers are kept as data**: at least 5 plausible wrong answers (of different
   kinds, each saying its mistake in its docstring and, with ``FAILS_AT``, the case that must catch
   it) and at least 1 correct answer written differently from the solution, in
   ``tests/data/exercise_mutations/<checker>/`` (format: that folder's README.md), run by
   ``tests/test_exercise_mutations.py``. A wrong answer is pinned to the case that must catch it
   (``FAILS_AT``), at the boundary of its kind (exactly 16 characters, a call at 10.5 s), with data
   that contains the trap (a memory saved twice, a backslash in a query, a failed call that was
   slow), and the figure an error reports is checked too. Every checker fails on the placeholder and
   passes on the published solution (``tests/test_exercises.py``).

A new day adds ``dayN.py`` here (its checkers named ``dayN_*``, each decorated with ``@exercise``
and listed in ``__all__``) and one line below; its wrong and right answers go to
``tests/data/exercise_mutations/<checker>/``.

Left out: scores and partial credit — an exercise passes or says what to fix. The checkers always
use the offline simulator, even when ``.env`` names a real provider, because a real model's answers
vary.
"""

from __future__ import annotations

from .appendix_mcp import *  # noqa: F401,F403
from .day1 import *  # noqa: F401,F403
from .day2 import *  # noqa: F401,F403
from .day2_structured import *  # noqa: F401,F403
from .day3 import *  # noqa: F401,F403
from .day4 import *  # noqa: F401,F403
from .day5 import *  # noqa: F401,F403
from .day6 import *  # noqa: F401,F403
from .day7 import *  # noqa: F401,F403
from .framework import NOT_DONE, ExerciseFailed, offline_base_url, offline_client  # noqa: F401
