"""The evaluation (Day 7): ten office requests, each scored on tool calls, arguments, database state and answer facts.

    python -m handwritten_agent eval                      # the model from .env (the offline simulator by default)
    python -m handwritten_agent eval --repeat 3 --json eval.json
    LLM_PROVIDER=local python -m handwritten_agent eval   # the local model (make live runs this)

- ``engine``        cases, scoring, ``evaluate``, the ``Report`` (table, JSON, pass^1 and pass^k)
- ``office_cases``  the ten cases and the fresh office world each one runs in
- ``cli``           the command: a progress bar, the table, the JSON file

Left out: judging answers with a model, and cases that span several sessions.
"""

from __future__ import annotations

from .engine import Attempt, EvalCase, ExpectedCall, OneOf, Report, StateCheck, World, evaluate, run_case
from .office_cases import NOW, OFFICE_CASES, office_world_factory

__all__ = ["Attempt", "EvalCase", "ExpectedCall", "NOW", "OFFICE_CASES", "OneOf", "Report", "StateCheck", "World", "evaluate",
           "office_world_factory", "run_case"]
