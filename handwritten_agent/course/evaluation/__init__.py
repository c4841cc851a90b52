"""The evaluation (Day 6): ten office requests, each scored on tool calls, arguments, database state
and answer facts.

    python -m handwritten_agent eval                      # the model from .env (the offline
                                                          simulator by default)
    python -m handwritten_agent eval --repeat 3 --json eval.json
    python -m handwritten_agent eval --cases extra        # twelve other requests, to see whether a
                                                          gain carries over
    LLM_PROVIDER=local python -m handwritten_agent eval   # the local model (make live runs this)

- ``engine``        cases, scoring, ``evaluate``, the ``Report`` (table, JSON, pass^k estimated as
                    τ-bench does)
- ``office_cases``  the ten cases and the fresh office world each one runs in
- ``extra_cases``   twelve more requests written apart from the ten (other wording, rooms, dates,
                    items)
- ``cli``           the command: a progress bar, the table, the JSON file

Left out: judging answers with a model, and cases that span several sessions.
"""

from __future__ import annotations

from .engine import (
    Attempt,
    EvalCase,
    ExpectedCall,
    OneOf,
    Report,
    StateCheck,
    World,
    evaluate,
    run_case,
)
from .extra_cases import EXTRA_CASES
from .office_cases import NOW, OFFICE_CASES, office_world_factory

__all__ = [
    "Attempt",
    "EXTRA_CASES",
    "EvalCase",
    "ExpectedCall",
    "NOW",
    "OFFICE_CASES",
    "OneOf",
    "Report",
    "StateCheck",
    "World",
    "evaluate",
    "office_world_factory",
    "run_case",
]
