"""The simulator on requests the course never uses (``tests/data/unseen_office_requests.py``),
scored like the evaluation.

Office requests run through the service's office agent (the evaluation's ``office_world_factory``)
on the real offline server; Day 2–3 requests through a plain agent on the four scenario tools. Each
case is a parameter, so a failure names the case and says what went wrong.
"""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.course.evaluation import EvalCase, OneOf, office_world_factory, run_case
from handwritten_agent.course.evaluation.engine import _fact_present, _matches
from handwritten_agent.llm import ChatClient
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.tools import ToolRegistry

_spec = importlib.util.spec_from_file_location(
    "unseen_office_requests", Path(__file__).parent / "data" / "unseen_office_requests.py"
)
unseen = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = unseen  # dataclasses look their module up there
_spec.loader.exec_module(unseen)

NOW = __import__("datetime").datetime(2026, 3, 12, 14, 30)


def client(offline_server, model: str = "course-sim") -> ChatClient:
    return ChatClient(offline_server.base_url, "test", model, max_retries=0, timeout=20)


def office_problems(case: EvalCase, offline_server, root: Path) -> list[str]:
    world = office_world_factory(client(offline_server), root=root)(case)
    attempt = run_case(case, world)
    executed = [call["tool"] for call in attempt.calls if call["executed"]]
    return (
        attempt.problems
        + unseen.extra_problems(case, attempt.answer, executed)
        + (
            []
            if attempt.answer or case.decide is None and attempt.stop_reason == "needs_confirmation"
            else ["没有回答"]
        )
    )


@pytest.mark.parametrize(
    "case", unseen.UNSEEN_OFFICE_CASES, ids=[c.id for c in unseen.UNSEEN_OFFICE_CASES]
)
def test_unseen_office_request(case, offline_server, tmp_path):
    problems = office_problems(case, offline_server, tmp_path)
    assert not problems, problems


def day23_problems(case: Any, offline_server) -> list[str]:
    if case.tools == "basic":
        registry = basic_registry(NOW)
    else:
        registry = ToolRegistry(
            [t for t in unseen.learner_tools() if t.name in case.tools.split(",")]
        )
    agent = Agent(client(offline_server), registry, max_steps=6)
    result = agent.run(case.request)
    made = [(r.call.name, json.loads(r.call.arguments or "{}")) for r in result.tool_calls]
    problems = []
    for expected in case.calls:
        if not any(
            name == expected.tool
            and all(_matches(v, args.get(k)) for k, v in expected.arguments.items())
            for name, args in made
        ):
            problems.append(f"没有按期望调用 {expected.tool}：{made}")
    problems += [f"不该调用 {name}" for name, _ in made if name in case.forbidden_tools]
    answer = result.answer or ""
    problems += [
        f"回答里缺少 {fact.options if isinstance(fact, OneOf) else fact}：{answer}"
        for fact in case.facts
        if not _fact_present(fact, answer)
    ]
    problems += [f"回答里不该有「{word}」：{answer}" for word in case.never if word in answer]
    return problems


@pytest.mark.parametrize("case", unseen.DAY23_CASES, ids=[c.id for c in unseen.DAY23_CASES])
def test_unseen_day23_request(case, offline_server):
    problems = day23_problems(case, offline_server)
    assert not problems, problems


def test_the_set_is_large_and_unlike_the_course_cases():
    from handwritten_agent.course.evaluation import OFFICE_CASES

    assert len(unseen.UNSEEN_OFFICE_CASES) >= 20
    assert not {c.request for c in unseen.UNSEEN_OFFICE_CASES} & {c.request for c in OFFICE_CASES}
    kinds = {c.kind for c in unseen.UNSEEN_OFFICE_CASES}
    assert {"拒绝", "否定", "多步", "通知", "采购", "预订", "查询"} <= kinds
    db = sqlite3.connect(":memory:")
    for case in unseen.UNSEEN_OFFICE_CASES:  # every state check is valid SQL for the office schema
        from handwritten_agent.scenarios.office.data import SCHEMA

        if case is unseen.UNSEEN_OFFICE_CASES[0]:
            db.executescript(SCHEMA)
        for check in case.state:
            db.execute(check.sql).fetchall()
