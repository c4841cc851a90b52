"""Every exercise check rejects the wrong answers in tests/data/exercise_mutations/ and accepts the
right ones.

A checker may only ever raise ``ExerciseFailed`` on a learner's value, and only for a reason it can
name: any other exception, or the checker's own last-resort "检查程序自身出错" message, fails this
test too. A wrong answer that sets ``FAILS_AT`` must fail at a case whose name contains it (so it is
rejected for its own mistake, not by accident). See tests/data/exercise_mutations/README.md for the
format.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from handwritten_agent.course.exercises import check
from handwritten_agent.course.exercises.check import ExerciseFailed
from handwritten_agent.course.exercises.check.framework import INTERNAL

DATA = Path(__file__).parent / "data" / "exercise_mutations"
CASES = sorted(path for path in DATA.glob("*/*.py") if path.name.startswith(("wrong_", "right_")))


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"mutation_{path.parent.name}_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (module.__doc__ or "").strip(), (
        f"{path}: say in the module docstring what this answer gets wrong (or right)"
    )
    return module


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_check_rejects_wrong_and_accepts_right_answers(path: Path, capsys):
    checker = getattr(check, path.parent.name)
    module = load(path)
    if path.name.startswith("wrong_"):
        with pytest.raises(ExerciseFailed) as failure:
            checker(*module.ARGS)
        message = str(failure.value)
        assert INTERNAL not in message, (
            f"the checker crashed instead of naming the mistake:\n{message}"
        )
        first_line = message.splitlines()[0]
        assert first_line.startswith(f"{path.parent.name}：用例「"), message
        for label in ("期望：", "实际：", "提示："):
            assert label in message, message
        wanted = getattr(module, "FAILS_AT", None)
        assert wanted is None or wanted in first_line, (
            f"expected to fail at a case containing {wanted!r}:\n{message}"
        )
        expected, got = _section(message, "期望："), _section(message, "实际：")
        assert expected != got, (
            f"期望 and 实际 print alike, so the learner cannot see what differs:\n{message}"
        )
        assert "🎉" not in capsys.readouterr().out
    else:
        checker(*module.ARGS)
        assert "🎉" in capsys.readouterr().out


def _section(message: str, label: str) -> str:
    """The text after ``label`` up to the next label of a failure message (期望/实际/提示 may span
    lines).
    """
    start = message.index(label) + len(label)
    ends = [
        message.find(other, start)
        for other in ("\n  期望：", "\n  实际：", "\n  提示：")
        if message.find(other, start) >= 0
    ]
    return message[start : min(ends) if ends else len(message)].strip()


def test_every_checker_has_at_least_five_wrong_and_one_right_answer():
    checkers = sorted(
        name
        for name in dir(check)
        if name.startswith(("day", "appendix_")) and callable(getattr(check, name))
    )
    counts = {
        name: (
            len(list((DATA / name).glob("wrong_*.py"))),
            len(list((DATA / name).glob("right_*.py"))),
        )
        for name in checkers
    }
    short = {name: count for name, count in counts.items() if count[0] < 5 or count[1] < 1}
    assert not short, f"(wrong, right) answers per checker, at least (5, 1) each: {short}"
    assert not [path for path in DATA.glob("*/*.py") if path.parent.name not in checkers], (
        "a folder names no checker"
    )


def test_the_checkers_own_guard_turns_a_crash_into_a_readable_failure():
    """The last guard in ``exercise``: a checker bug reaches the learner as ExerciseFailed that says
    so.
    """
    from handwritten_agent.course.exercises.check.framework import exercise

    @exercise
    def day0_broken(check, answer):
        check.ok("第一个用例")
        answer["missing"]  # a checker bug: reads a learner's value without a type guard

    with pytest.raises(ExerciseFailed, match=INTERNAL):
        day0_broken(None)


class _Unprintable:
    """A learner's value that breaks everything a careless checker might do with it."""

    def __repr__(self) -> str:
        raise RuntimeError("repr")

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    __hash__ = None  # type: ignore[assignment]

    def __iter__(self):
        raise RuntimeError("iter")

    def __getattr__(self, name: str):
        raise RuntimeError(f"getattr {name}")


ODD_VALUES = [
    None,
    0,
    -1.5,
    float("nan"),
    True,
    "",
    "x",
    b"bytes",
    [],
    [None, 1],
    {},
    {"content": 1, "tool_calls": "x", "finish_reason": 3},
    {"content": "", "tool_calls": [None, 1, {"function": "x"}], "finish_reason": "stop"},
    ("final",),
    ("final", None),
    ("final", [1, "a"]),
    (None, []),
    _Unprintable(),
]
CHECKERS = sorted(
    name
    for name in dir(check)
    if name.startswith(("day", "appendix_")) and callable(getattr(check, name))
)


def _answer_returning(checker: str, value):
    if checker == "day3_repeat_guard":
        return type("RepeatGuard", (), {"check": lambda self, name, arguments: value})
    return lambda *args, **kwargs: value


@pytest.mark.parametrize("checker", CHECKERS)
def test_no_checker_crashes_on_an_odd_value(checker, capsys):
    """Whatever a learner's code returns, the checker answers with ExerciseFailed that names a case
    — never a crash.
    """
    for value in ODD_VALUES:
        with pytest.raises(ExerciseFailed) as failure:
            getattr(check, checker)(_answer_returning(checker, value))
        message = str(failure.value)
        assert INTERNAL not in message and "用例「" in message, (type(value).__name__, message)
    if checker.endswith(("_guard", "_limiter")):  # a class: its constructor may return anything too
        for value in ODD_VALUES:
            with pytest.raises(ExerciseFailed) as failure:
                getattr(check, checker)(lambda *args, value=value, **kwargs: value)
            assert INTERNAL not in str(failure.value), (type(value).__name__, str(failure.value))
    for value in (None, 42, "not a function"):  # not even callable
        with pytest.raises(ExerciseFailed, match="不带括号"):
            getattr(check, checker)(value)


def _exchange_tool_returning(value):
    from handwritten_agent.tools import tool

    def build():
        @tool
        def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
            """查询汇率：1 单位 from_currency 能换多少 to_currency，例如“100 美元能换多少人民币”。

            Args:
                from_currency: 要换出的货币，例如：USD 或 美元
                to_currency: 要换成的货币，例如：CNY 或 人民币
            """
            return value

        return query_exchange_rate

    return build


def test_no_exchange_tool_result_crashes_the_checker():
    """The tool's own return value is a learner value too: it reaches the checker through the
    registry and the Agent.
    """
    for value in ODD_VALUES:
        with pytest.raises(ExerciseFailed) as failure:
            check.day3_exchange_rate_tool(_exchange_tool_returning(value))
        assert INTERNAL not in str(failure.value), (type(value).__name__, str(failure.value))
