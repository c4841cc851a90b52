"""pass^k is estimated as τ-bench does: the mean over cases of C(c, k) / C(n, k); each attempt keeps
its run id, and a tracer hooked on the evaluated agents writes every attempt under that id."""

from __future__ import annotations

import itertools
import random
from math import comb

import pytest

from handwritten_agent.course.evaluation import (
    OFFICE_CASES,
    Attempt,
    EvalCase,
    Report,
    evaluate,
    office_world_factory,
)
from handwritten_agent.scripted import FunctionClient


def report_of(outcomes: dict[str, list[bool]]) -> Report:
    """A report with the given pass/fail runs per case (no agent needed to test the arithmetic)."""
    cases = [EvalCase(name, "请求", "查询") for name in outcomes]
    attempts = [
        Attempt(
            name,
            r,
            {"tools": ok, "arguments": True, "database": True, "answer": True},
            "final",
            "",
            [],
            [],
        )
        for name, runs in outcomes.items()
        for r, ok in enumerate(runs)
    ]
    return Report("m", max(len(runs) for runs in outcomes.values()), attempts, cases)


def brute_force(runs: list[bool], k: int) -> float:
    """The share of k-subsets of the runs in which every run passed (what C(c,k)/C(n,k) counts)."""
    subsets = list(itertools.combinations(runs, k))
    return sum(all(s) for s in subsets) / len(subsets)


def test_pass_hat_matches_the_formula_on_a_worked_example():
    report = report_of(
        {
            "a": [True, True, True],
            "b": [True, True, False],
            "c": [True, False, False],
            "d": [False, False, False],
        }
    )
    assert report.pass_1 == pytest.approx((3 / 3 + 2 / 3 + 1 / 3 + 0) / 4)
    assert report.pass_hat(2) == pytest.approx((1 + 1 / 3 + 0 + 0) / 4)  # C(2,2)/C(3,2) = 1/3 for b
    assert report.pass_k == report.pass_hat(3) == pytest.approx(1 / 4)  # only a passed every time
    assert report.pass_curve() == {1: report.pass_1, 2: report.pass_hat(2), 3: report.pass_hat(3)}
    assert report.pass_1 > report.pass_hat(2) > report.pass_k


def test_pass_hat_equals_the_share_of_all_passing_subsets_for_random_outcomes():
    rng = random.Random(7)
    for _ in range(50):
        n = rng.randint(1, 6)
        outcomes = {
            f"c{i}": [rng.random() < 0.6 for _ in range(n)] for i in range(rng.randint(1, 5))
        }
        report = report_of(outcomes)
        for k in range(1, n + 1):
            expected = sum(brute_force(runs, k) for runs in outcomes.values()) / len(outcomes)
            assert report.pass_hat(k) == pytest.approx(expected)
            assert report.pass_hat(k) == pytest.approx(
                sum(comb(sum(runs), k) / comb(n, k) for runs in outcomes.values()) / len(outcomes)
            )


def test_pass_hat_never_rises_with_k_and_is_exact_at_the_ends():
    report = report_of(
        {"a": [True, False, True, True], "b": [True] * 4, "c": [False, True, False, True]}
    )
    curve = [report.pass_hat(k) for k in range(1, 5)]
    assert curve == sorted(curve, reverse=True)
    assert curve[0] == pytest.approx((3 + 4 + 2) / 12) and curve[-1] == pytest.approx(1 / 3)


def test_k_outside_one_to_n_is_refused_in_chinese():
    report = report_of({"a": [True, False], "b": [True, True]})
    for k in (0, 3):
        with pytest.raises(ValueError, match="pass\\^k 需要"):
            report.pass_hat(k)


def test_the_table_and_the_json_carry_every_k(tmp_path):
    report = report_of({"a": [True, True, False], "b": [True, True, True]})
    table = report.table()
    assert "pass^1 = 83%" in table and "pass^2 = 67%" in table and "pass^3 = 50%" in table
    data = report.to_json()
    assert data["pass_hat"] == {
        "1": pytest.approx(5 / 6),
        "2": pytest.approx(2 / 3),
        "3": pytest.approx(0.5),
    }
    assert data["pass_3"] == data["pass_k"] == pytest.approx(0.5)


def test_each_attempt_has_its_run_id_and_a_tracer_on_the_agents_writes_it(tmp_path):
    from handwritten_agent.tracing import Tracer, read_trace

    tracer = Tracer()  # lines kept in memory
    chat = OFFICE_CASES[6]  # 你好，你是谁？ — no tool needed
    assert chat.id == "chit_chat"
    model = FunctionClient(lambda messages, tools: "你好，我是办公室行政助手。", max_calls=10)
    report = evaluate(
        [chat], office_world_factory(model, root=tmp_path, hooks=[tracer]), repeat=2, run_prefix="t"
    )
    assert [a.run_id for a in report.attempts] == ["t_chit_chat_1", "t_chit_chat_2"]
    assert [run.request_id for run in read_trace(tracer.lines).runs] == [
        "t_chit_chat_1",
        "t_chit_chat_2",
    ]
    assert report.pass_k == 1.0
