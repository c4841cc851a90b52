"""The framework's guards around a learner's call: a time limit, SystemExit, KeyboardInterrupt, the
placeholder, and a failure that IPython shows as its Chinese message alone.

The hangs here never end on their own, so the (lowered) limit decides only how long the test waits,
never whether it passes.
"""

from __future__ import annotations

import threading
import time

import pytest

from handwritten_agent.course.exercises.check import ExerciseFailed, framework
from handwritten_agent.course.exercises.check.framework import exercise
from handwritten_agent.course.exercises.check.limits import CallTimedOut, time_limit


@exercise
def day0_double(check, answer):
    for case, value in (("第一个值", 1), ("第二个值", 2)):
        got = check.call(case, answer, value, given=value)
        if got != value * 2:
            raise check.fail(case, expected=value * 2, got=got, hint="乘以 2。")
        check.ok(case)
    check.done()


@exercise
def day0_direct(check, answer):
    """A checker that calls the learner's code itself, outside ``check.call``."""
    check.ok("准备")
    answer(1)
    check.done()


def _spin(value):
    while True:
        pass


def _sleep(value):
    time.sleep(3600)


@pytest.fixture
def short_limits(monkeypatch):
    monkeypatch.setattr(framework, "CALL_TIME_LIMIT", 1.0)
    monkeypatch.setattr(framework, "CHECK_TIME_LIMIT", 2.0)


@pytest.mark.parametrize("answer", [_spin, _sleep], ids=["busy-loop", "sleep"])
def test_a_hang_becomes_a_message_naming_the_case(short_limits, answer):
    with pytest.raises(ExerciseFailed) as failure:
        day0_double(answer)
    message = str(failure.value)
    assert "用例「第一个值」没有通过：1 秒内没有结束" in message and "次数上限" in message, message


def test_a_hang_outside_check_call_is_stopped_by_the_whole_checks_limit(short_limits):
    with pytest.raises(ExerciseFailed, match="2 秒内没有结束"):
        day0_direct(_spin)


def test_the_limit_works_in_a_thread_that_is_not_the_main_one(short_limits):
    """A kernel may run code outside the main thread: there the watchdog injects the timeout."""
    outcome: list[BaseException] = []

    def run():
        try:
            day0_double(_spin)
        except BaseException as exc:  # noqa: BLE001
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(120)
    assert (
        outcome and isinstance(outcome[0], ExerciseFailed) and "秒内没有结束" in str(outcome[0])
    ), outcome
    assert not [t for t in threading.enumerate() if t.name == "exercise-time-limit"], (
        "a watchdog was left running"
    )


def test_nested_limits_never_extend_the_outer_one():
    started = time.monotonic()
    with pytest.raises(CallTimedOut):
        with time_limit(0.5):
            with time_limit(3600):
                _spin(None)
    assert time.monotonic() - started < 3600


def test_a_correct_answer_passes_and_leaves_no_timer(capsys):
    import signal

    day0_double(lambda value: value * 2)
    assert "🎉" in capsys.readouterr().out
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


def test_sys_exit_becomes_a_message():
    def leave(value):
        raise SystemExit(1)

    with pytest.raises(ExerciseFailed, match="调用了 sys.exit"):
        day0_double(leave)


def test_keyboard_interrupt_is_explained_then_re_raised(capsys):
    def interrupted(value):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        day0_double(interrupted)
    assert "被中断了（KeyboardInterrupt）" in capsys.readouterr().out


def test_the_placeholder_prints_no_passed_case_before_not_done(capsys):
    def unfinished(value):
        if value == 2:
            raise NotImplementedError()
        return value * 2

    with pytest.raises(ExerciseFailed, match="还没有完成"):
        day0_double(unfinished)
    assert "✅" not in capsys.readouterr().out


def test_ipython_shows_only_the_message():
    with pytest.raises(ExerciseFailed) as failure:
        day0_double(lambda value: value)
    shown = "\n".join(failure.value._render_traceback_())
    assert (
        "用例「第一个值」没有通过" in shown
        and "Traceback" not in shown
        and "check.fail" not in shown
    )
    assert shown.count("提示：") == 1


class _OwnError(BaseException):
    """A learner's own error class derived from BaseException instead of Exception."""


def test_a_learners_base_exception_becomes_a_message_inside_and_outside_call():
    def own(value):
        raise _OwnError("坏了")

    with pytest.raises(ExerciseFailed, match="抛出了 _OwnError") as failure:
        day0_double(own)
    assert "用例「第一个值」" in str(failure.value) and "继承 Exception" in str(failure.value)
    with pytest.raises(ExerciseFailed, match="抛出了 _OwnError"):
        day0_direct(own)


@exercise
def day0_secret(check, answer):
    check.keep_secret("sk-very-secret-0123")
    got = check.call("带密钥的调用", answer, "sk-very-secret-0123", given="（密钥）")
    if got != "ok":
        raise check.fail("带密钥的调用", expected="ok", got=got, hint="返回 ok。")
    check.ok("带密钥的调用")
    check.done()


def test_printing_a_secret_fails_and_the_message_does_not_repeat_it(capsys):
    def chatty(key):
        print("调试：", {"Authorization": f"Bearer {key}"})
        return "ok"

    with pytest.raises(ExerciseFailed, match="输出里出现了不该显示的秘密") as failure:
        day0_secret(chatty)
    assert "sk-very-secret-0123" not in str(failure.value)
    day0_secret(lambda key: print("调试：只打印长度", len(key)) or "ok")
    assert "🎉" in capsys.readouterr().out


@exercise
def day0_total(check, answer):
    for case, values in (("两个数", [1, 2]), ("三个数", {"a": 1, "b": 2, "c": 3})):
        got = check.call(case, answer, values, given=values)
        wanted = sum(values.values()) if isinstance(values, dict) else sum(values)
        if got != wanted:
            raise check.fail(case, expected=wanted, got=got, hint="求和。")
        check.ok(case)
    check.done()


def test_changing_a_list_or_dict_passed_in_is_named():
    def pops(values):
        total = 0
        while values:
            total += values.pop() if isinstance(values, list) else values.popitem()[1]
        return total

    with pytest.raises(ExerciseFailed, match="修改了调用者传进来的参数") as failure:
        day0_total(pops)
    assert "第 1 个参数被修改了" in str(failure.value)
    day0_total(lambda values: sum(values.values()) if isinstance(values, dict) else sum(values))
