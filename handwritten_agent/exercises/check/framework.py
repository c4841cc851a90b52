"""What every checker shares: ``ExerciseFailed``, the per-run ``_Check`` that prints ✅ lines and builds
failure messages (用例 / 期望 / 实际 / 提示), type guards, and a client for the offline simulator.

Unlike the ``dayN`` modules (one checker per exercise), nothing here knows any exercise.
"""

from __future__ import annotations

import json
import re
import socket
from typing import Any, Callable, Sequence

from ...types import ToolCall, shorten

NOT_DONE = "还没有完成：请在 `# YOUR CODE HERE` 处写下你的实现（并删掉 `raise NotImplementedError()` 这一行），然后重新运行这个单元格。"
_CHINESE = re.compile(r"[\u4e00-\u9fff]")


class ExerciseFailed(AssertionError):
    """An exercise's check did not pass. The message (Chinese) says which case, what was expected and a hint."""


# ---------------------------------------------------------------------------------------------
# The framework: cases, messages, the shared offline server
# ---------------------------------------------------------------------------------------------

def _short(value: Any, limit: int = 300) -> str:
    """A learner's value for a failure message: cut to ``limit`` characters, saying how long it was."""
    return shorten(value, limit, one_line=False, show_length=True)


class _Check:
    """One run of one checker: counts passed cases, prints them, and builds failure messages."""

    def __init__(self, exercise: str):
        self.exercise = exercise
        self.passed = 0
        self._pending: list[str] = []

    def ok(self, case: str, detail: str = "") -> None:
        self.passed += 1
        self._pending.append(f"✅ {case}" + (f"：{detail}" if detail else ""))

    def _flush(self) -> None:
        # One print for all lines: a notebook then stores one output, the same on every run,
        # instead of pieces split wherever the kernel happened to flush while a case was running.
        if self._pending:
            print("\n".join(self._pending))
            self._pending.clear()

    def not_done(self) -> ExerciseFailed:
        self._flush()
        return ExerciseFailed(f"{self.exercise}：{NOT_DONE}")

    def fail(self, case: str, *, expected: Any, got: Any, hint: str, given: Any = None) -> ExerciseFailed:
        self._flush()
        lines = [f"{self.exercise}：用例「{case}」没有通过。"]
        if given is not None:
            lines.append(f"  输入：{_short(given)}")
        lines.append(f"  期望：{_short(expected)}")
        lines.append(f"  实际：{_short(got)}")
        lines.append(f"  提示：{hint}")
        if self.passed:
            lines.append(f"（前面 {self.passed} 个用例已通过。）")
        return ExerciseFailed("\n".join(lines))

    def call(self, case: str, fn: Callable[..., Any], *args: Any, hint: str = "", expected: Any = "正常返回", **kwargs: Any) -> Any:
        """Run the learner's code; the placeholder and unexpected exceptions become ``ExerciseFailed``."""
        __tracebackhide__ = True  # pytest and IPython leave the checker's own frames out of the traceback
        try:
            return fn(*args, **kwargs)
        except NotImplementedError:
            raise self.not_done() from None
        except ExerciseFailed:
            self._flush()
            raise
        except Exception as exc:  # noqa: BLE001 - any learner bug becomes a readable failure
            raise self.fail(case, expected=expected, got=f"抛出了异常 {type(exc).__name__}: {exc}",
                            hint=hint or "先在上面的单元格里单独调用你的函数，看看是哪一行出的错。") from exc

    def done(self) -> None:
        self._pending.append(f"🎉 {self.exercise}：全部 {self.passed} 个用例通过！")
        self._flush()


def _same_call(got: Any, wanted: ToolCall) -> bool:
    """The learner's value is a call to the same tool with equal arguments (key order and spacing do not matter)."""
    return isinstance(got, ToolCall) and got.same_call(wanted)


def _brief(value: Any, limit: int = 40) -> str:
    """One short line for a ✅ message."""
    return shorten(value, limit)


def _callable(exercise: str, fn: Any, what: str = "函数") -> None:
    if not callable(fn):
        raise ExerciseFailed(f"{exercise}：需要传入你写的{what}本身（例如 check.{exercise}(my_function)，不带括号），"
                             f"收到的是 {type(fn).__name__}: {_short(fn, 100)}")


def offline_base_url() -> str:
    """The API root of the in-process offline server that ``connect("offline")`` shares (started on first use)."""
    from ...llm import connect

    return connect("offline", quiet=True).base_url


def offline_client(model: str = "course-sim", *, max_retries: int = 0, timeout: float = 30.0) -> Any:
    """A ``ChatClient`` on the offline simulator, independent of ``.env`` (checks must not depend on it)."""
    from ...llm import OFFLINE_API_KEY, ChatClient

    return ChatClient(offline_base_url(), OFFLINE_API_KEY, model, timeout=timeout, max_retries=max_retries,
                      label="offline course simulator", backoff=0.0, max_wait=0.0)


def _closed_port() -> int:
    """A local port with nothing listening on it (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_CALCULATOR_SCHEMA = {"type": "function", "function": {
    "name": "calculate", "description": "计算一个数学表达式，例如 (12 + 34) * 2。",
    "parameters": {"type": "object", "properties": {"expression": {"type": "string", "description": "要计算的表达式，例如 17 * 9"}},
                   "required": ["expression"]}}}


class TooManyModelCalls(RuntimeError):
    """Raised by a checker's model when the learner's loop keeps calling it far beyond any sensible bound."""


class _Recorder:
    """Wraps a ChatModel and keeps each request's messages (for checking what the learner sent)."""

    def __init__(self, client: Any):
        self.client = client
        self.requests: list[list[dict[str, Any]]] = []

    def complete(self, messages: Sequence[dict[str, Any]], tools: Any = None, **options: Any) -> Any:
        self.requests.append(json.loads(json.dumps(list(messages), ensure_ascii=False, default=str)))
        if len(self.requests) > 20:
            raise TooManyModelCalls("调用模型超过了 20 次：循环没有上限吗？每个循环都要有明确的次数上限。")
        return self.client.complete(messages, tools, **options)
