"""Scoring an agent on cases: which tools it called, with which arguments, what the database holds
after, what the answer says.

tau-bench's idea: the database decides, not the wording. Each case runs in a fresh world (a new
SQLite file), and is scored on four things, each pass or fail:

- ``tools``      every expected tool was called, and no forbidden tool was *executed*
- ``arguments``  each expected call was made with the expected arguments (a value, or ``OneOf``
                 alternatives)
- ``database``   every state check (a SQL query and the rows it must return) holds after the run
- ``answer``     every fact (a substring, or ``OneOf`` alternatives) appears in the final answer

A case passes when all four do. Run each case ``n`` times; ``pass^k`` is estimated as τ-bench does
(Yao et al. 2024, §4): for a case with ``c`` passing runs out of ``n``, the chance that ``k`` runs
drawn from them all pass is ``C(c, k) / C(n, k)``; ``pass^k`` is the mean of that over the cases.
``pass^1`` is then the mean pass rate, and ``pass^n`` the share of cases that passed every time —
the number that says whether users can rely on it (a flaky agent can have a high pass^1 and a low
pass^k). Any ``k ≤ n`` can be read from the same runs (``Report.pass_hat(k)``).

Left out: judging wording with a model (facts are substrings), partial credit, cost per case.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass, field
from math import comb
from pathlib import Path
from typing import Any

from ...agent import Agent, RunResult
from ...run import ending_line
from ...storage import open_sqlite


@dataclass(frozen=True)
class OneOf:
    """Any one of these values is right (for an argument or an answer fact)."""

    options: tuple[Any, ...]

    def __init__(self, *options: Any):
        object.__setattr__(self, "options", tuple(options))

    def to_json(self) -> Any:
        return {"one_of": list(self.options)}


@dataclass
class ExpectedCall:
    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    """Only these arguments are checked (others may be anything); a value may be a ``OneOf``."""


@dataclass
class StateCheck:
    """``sql`` run on the world's database after the run must return exactly ``rows`` (as lists, in
    order).
    """

    sql: str
    rows: list[list[Any]]
    why: str = ""


@dataclass
class EvalCase:
    id: str
    request: str
    kind: str
    """What the case is about, in Chinese: 查询, 预订, 通知, 采购, 拒绝, 闲聊, 多步, 确认 …"""
    role: str = "行政助理"
    expected_calls: list[ExpectedCall] = field(default_factory=list)
    forbidden_tools: list[str] = field(default_factory=list)
    """Tools that must not *run* in this case (a call the gate refused does not count)."""
    decide: str | None = None
    """How a person answers confirmation requests in this case: ``approve``, ``reject`` or None
    (nobody answers).
    """
    state: list[StateCheck] = field(default_factory=list)
    answer_facts: list[Any] = field(default_factory=list)


@dataclass
class Attempt:
    case: str
    repeat: int
    scores: dict[str, bool]
    stop_reason: str
    answer: str | None
    calls: list[dict[str, Any]]
    problems: list[str]
    run_id: str = ""
    """The run's id: the ``request_id`` of its lines when the agent carried a tracer."""

    @property
    def passed(self) -> bool:
        return all(self.scores.values())


@dataclass
class World:
    """What one run of one case needs: the agent, the database file to check, and how to answer a
    confirmation.
    """

    agent: Agent
    db_path: Path
    decide: Callable[[Any, str], Any]
    """``decide(request, "approve"|"reject")`` → the decision object the gate understands."""


def _matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, OneOf):
        return any(_matches(option, actual) for option in expected.options)
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip().lower() == actual.strip().lower()
    if (
        isinstance(expected, (int, float))
        and isinstance(actual, (int, float))
        and not isinstance(actual, bool)
    ):
        return abs(expected - actual) < 1e-9
    return expected == actual


def _fact_present(fact: Any, answer: str) -> bool:
    if isinstance(fact, OneOf):
        return any(_fact_present(option, answer) for option in fact.options)
    return str(fact).lower() in answer.lower()


def run_case(case: EvalCase, world: World, repeat: int = 0, run_id: str | None = None) -> Attempt:
    """Run one case once in its fresh world and score it (``run_id`` names the run, e.g. to find it
    in a trace).
    """
    result: RunResult = world.agent.run(case.request, run_id=run_id)
    for _ in range(
        5
    ):  # answer confirmations the way the case says (bounded: a run pauses a few times at most)
        if result.stop_reason != "needs_confirmation" or case.decide is None:
            break
        result = world.agent.resume(
            result, {request.id: world.decide(request, case.decide) for request in result.pending}
        )
    executed = [record for record in result.tool_calls if record.executed]
    asked = [record.call for record in result.tool_calls] + [
        paused.call for paused in result.paused
    ]  # a call still waiting was asked too
    calls = [
        {
            "tool": call.name,
            "arguments": _args(call.arguments),
            "executed": any(r.call is call for r in executed),
        }
        for call in asked
    ]
    problems: list[str] = []

    asked_names = {call.name for call in asked}
    missing = [e.tool for e in case.expected_calls if e.tool not in asked_names]
    ran_forbidden = sorted({r.call.name for r in executed if r.call.name in case.forbidden_tools})
    if missing:
        problems.append(f"没有调用 {'、'.join(missing)}")
    if ran_forbidden:
        problems.append(f"执行了不该执行的 {'、'.join(ran_forbidden)}")
    tools_ok = not missing and not ran_forbidden

    arguments_ok = True
    for expected in case.expected_calls:
        candidates = [_args(call.arguments) for call in asked if call.name == expected.tool]
        if not any(
            all(_matches(value, args.get(name)) for name, value in expected.arguments.items())
            for args in candidates
        ):
            # a call never made has no right arguments (its absence is already named above)
            arguments_ok = False
            if candidates:
                want = {
                    k: v.to_json() if isinstance(v, OneOf) else v
                    for k, v in expected.arguments.items()
                }
                problems.append(
                    f"{expected.tool} 的参数不对：期望包含 {json.dumps(want, ensure_ascii=False)}，"
                    f"实际 {json.dumps(candidates, ensure_ascii=False)}"
                )

    database_ok = True
    with closing(open_sqlite(world.db_path, read_only=True)) as db:
        for check in case.state:
            rows = [list(row) for row in db.execute(check.sql).fetchall()]
            if rows != check.rows:
                database_ok = False
                problems.append(
                    f"数据库不对（{check.why or check.sql}）：期望 {check.rows}，实际 {rows}"
                )

    answer = result.answer or ""
    absent = [fact for fact in case.answer_facts if not _fact_present(fact, answer)]
    if absent:
        problems.append(
            f"回答里缺少："
            f"{'、'.join(str(f.options if isinstance(f, OneOf) else f) for f in absent)}"
        )
    answer_ok = (
        bool(answer) and not absent
        if case.answer_facts
        else result.stop_reason in ("final", "needs_confirmation")
    )
    if not answer_ok and not absent:
        problems.append(f"没有得到回答（运行结束：{ending_line(result.stop_reason)}）")

    scores = {
        "tools": tools_ok,
        "arguments": arguments_ok,
        "database": database_ok,
        "answer": answer_ok,
    }
    return Attempt(
        case.id, repeat, scores, result.stop_reason, result.answer, calls, problems, result.run_id
    )


def _args(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {"_unparsable": text}
    return value if isinstance(value, dict) else {"_not_an_object": value}


@dataclass
class Report:
    model: str
    repeat: int
    attempts: list[Attempt]
    cases: list[EvalCase]

    def by_case(self) -> dict[str, list[Attempt]]:
        grouped: dict[str, list[Attempt]] = {case.id: [] for case in self.cases}
        for attempt in self.attempts:
            grouped[attempt.case].append(attempt)
        return grouped

    def pass_hat(self, k: int) -> float:
        """τ-bench's pass^k: the mean over cases of C(c, k) / C(n, k), with ``c`` passing runs out
        of a case's ``n``.

        It is the chance that ``k`` runs of a case, drawn from the ones made, all pass — averaged
        over the cases. ``k`` may not exceed the runs a case has (``ValueError``).
        """
        grouped = [attempts for attempts in self.by_case().values() if attempts]
        if k < 1 or any(k > len(attempts) for attempts in grouped):
            fewest = min((len(a) for a in grouped), default=0)
            raise ValueError(
                f"pass^k 需要 1 ≤ k ≤ 每个用例的运行次数（最少的用例跑了 {fewest} 次），收到的是 "
                f"k={k}。"
            )
        if not grouped:
            return 0.0
        return sum(
            comb(sum(a.passed for a in attempts), k) / comb(len(attempts), k)
            for attempts in grouped
        ) / len(grouped)

    @property
    def pass_1(self) -> float:
        """The mean pass rate over cases (τ-bench's pass^1; the share of passing runs when every
        case ran equally often).
        """
        return self.pass_hat(1) if self.attempts else 0.0

    @property
    def pass_k(self) -> float:
        """pass^k for k = the runs per case (``repeat``): the share of cases that passed every
        run.
        """
        return self.pass_hat(self.repeat) if self.attempts else 0.0

    def pass_curve(self) -> dict[int, float]:
        """pass^k for every k from 1 to ``repeat``: how reliability falls as a user asks more
        often.
        """
        return {k: self.pass_hat(k) for k in range(1, self.repeat + 1)} if self.attempts else {}

    def score(self, name: str) -> float:
        return (
            sum(a.scores[name] for a in self.attempts) / len(self.attempts)
            if self.attempts
            else 0.0
        )

    def table(self) -> str:
        """A plain-text table: one row per case (passes out of k per score), then the totals and
        pass^1 / pass^k.
        """
        from ...text import text_table

        names = ("tools", "arguments", "database", "answer")
        headers = ["用例", "类型", "工具选择", "参数", "数据库", "回答事实", "通过"]
        rows: list[list[Any]] = []
        grouped = self.by_case()
        for case in self.cases:
            attempts = grouped[case.id]
            rows.append(
                [
                    case.id,
                    case.kind,
                    *(f"{sum(a.scores[n] for a in attempts)}/{len(attempts)}" for n in names),
                    f"{sum(a.passed for a in attempts)}/{len(attempts)}",
                ]
            )
        rows.append(["合计", "", *(f"{self.score(n):.0%}" for n in names), f"{self.pass_1:.0%}"])
        summary = (
            "pass^1 ="
            f" {self.pass_1:.0%}（{sum(a.passed for a in self.attempts)}/{len(self.attempts)}"
            " 次运行通过）"
        )
        if self.repeat > 1:
            between = "，".join(
                f"pass^{k} = {value:.0%}"
                for k, value in self.pass_curve().items()
                if 1 < k < self.repeat
            )
            summary += (
                f"，{between}" if between else ""
            ) + f"，pass^{self.repeat} = {self.pass_k:.0%}（{self.repeat} 次全部通过的用例占比）"
        return (
            f"评测：{self.model} · {len(self.cases)} 个用例，每个 {self.repeat}"
            f" 次\n{text_table(headers, rows)}\n{summary}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "repeat": self.repeat,
            "pass_1": self.pass_1,
            f"pass_{self.repeat}": self.pass_k,
            "pass_k": self.pass_k,
            "pass_hat": {str(k): value for k, value in self.pass_curve().items()},
            "scores": {n: self.score(n) for n in ("tools", "arguments", "database", "answer")},
            "attempts": [asdict(a) | {"passed": a.passed} for a in self.attempts],
        }


def evaluate(
    cases: Sequence[EvalCase],
    make_world: Callable[[EvalCase], World],
    *,
    repeat: int = 1,
    model: str = "",
    progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
    run_prefix: str = "eval",
) -> Report:
    """Run every case ``repeat`` times, each in a fresh world, and collect the scores.

    Each run's id is ``{run_prefix}_{case id}_{repeat number from 1}`` (e.g. ``eval_book_room_2``),
    so a tracer on the agents writes each attempt under a name you can find.
    """
    if repeat < 1:
        raise ValueError(f"repeat 至少是 1，收到的是 {repeat}。")
    jobs = [(case, r) for r in range(repeat) for case in cases]
    attempts = [
        run_case(case, make_world(case), r, run_id=f"{run_prefix}_{case.id}_{r + 1}")
        for case, r in (progress(jobs) if progress else jobs)
    ]
    return Report(model, repeat, attempts, list(cases))


__all__ = [
    "Attempt",
    "EvalCase",
    "ExpectedCall",
    "OneOf",
    "Report",
    "StateCheck",
    "World",
    "evaluate",
    "run_case",
]
