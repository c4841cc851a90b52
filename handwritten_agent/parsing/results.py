"""What parsing produces: a ``ParseError`` written for the model, a ``ReActStep``, and the keys a
call may use.

Left out: the parsing itself (``blocks``, ``repair``, ``calls``, ``react``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..jsontext import MAX_JSON_DEPTH
from ..messages import ToolCall

NAME_KEYS = ("name", "tool_name", "tool", "function", "action")
"""Keys a model may use for the tool's name, in the order they are tried."""

ARGUMENT_KEYS = ("arguments", "args", "parameters", "params", "input", "action_input", "tool_input")
"""Keys a model may use for the arguments, in the order they are tried."""

MAX_BLOCKS = 64
"""At most this many JSON blocks of one reply are examined (a bound, so huge inputs stay fast)."""

MAX_DEPTH = MAX_JSON_DEPTH
"""Deeper JSON is refused, the same on every Python version (no tool call nests anywhere near
this).
"""

_FINAL_ANSWER_NAMES = {"final answer", "final_answer", "finalanswer"}


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParseError:
    """Why a reply that tried to call a tool could not be read.

    ``message`` is for the model (says what was wrong and what to send instead), ready to be sent
    back as the next user message; ``detail`` is the technical reason for logs (positions, which
    check failed); ``raw`` is the text. Both are Chinese: learners read logs too.
    """

    message: str
    detail: str
    raw: str


@dataclass(frozen=True)
class ReActStep:
    """One model turn in the text ReAct format, cut before any "Observation:" the model wrote."""

    thought: str | None = None
    action: str | None = None
    action_input: dict[str, Any] | None = None
    final_answer: str | None = None

    @property
    def tool_call(self) -> ToolCall | None:
        """The action as a ``ToolCall``, or None when this step is a final answer (or neither)."""
        if self.action is None:
            return None
        return ToolCall.from_arguments(self.action, dict(self.action_input or {}))


class _Failure(NamedTuple):
    reason: str  # for the model
    detail: str  # for logs: the technical reason


def _error(failure: _Failure, raw: str, *, react: bool = False) -> ParseError:
    if react:
        ask = '请在 Action Input 后面只写一个合法的 JSON 对象，例如 {"参数名": "参数值"}'
    else:
        ask = '请只输出一个合法的 JSON 对象，例如 {"name": "工具名", "arguments": {…}}'
    return ParseError(
        message=f"你上次返回的工具参数无法解析：{failure.reason}，{ask}",
        detail=failure.detail,
        raw=raw,
    )
