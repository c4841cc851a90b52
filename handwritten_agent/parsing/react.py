"""The text ReAct format: ``Thought:`` / ``Action:`` / ``Action Input:`` lines, or ``Final
Answer:``.

Left out: multi-step transcripts (one reply is one step; the agent adds the ``Observation:``).
"""

from __future__ import annotations

import json
from typing import Any

from ..jsontext import json_type_zh
from .blocks import _WRAPPERS, _strip_reasoning, find_json_blocks
from .repair import _first_json_value
from .results import ParseError, ReActStep, _error, _Failure

# --------------------------------------------------------------------------------------------
# The text ReAct format
# --------------------------------------------------------------------------------------------

_REACT_LABELS = {
    "thought": "thought",
    "思考": "thought",
    "action": "action",
    "行动": "action",
    "actioninput": "action_input",
    "行动输入": "action_input",
    "observation": "observation",
    "观察": "observation",
    "finalanswer": "final_answer",
    "最终答案": "final_answer",
}


def _react_label(line: str) -> tuple[str, str] | None:
    """``("action", "calculate")`` for a line like ``Action: calculate``; None for other lines."""
    stripped = line.lstrip(" \t*#>-`")
    colons = [
        index for index in (stripped.find(":", 0, 24), stripped.find("：", 0, 24)) if index >= 0
    ]
    if not colons:
        return None
    colon = min(colons)
    key = stripped[:colon].replace("*", "").replace(" ", "").replace("_", "").lower()
    label = _REACT_LABELS.get(key)
    if label is None:
        return None
    return label, stripped[colon + 1 :].lstrip("* \t")


def _clean_action_name(text: str) -> str:
    name = text.strip().splitlines()[0] if text.strip() else ""
    return name.strip().strip("[]`'\"“”。.").strip()


_NO_INPUT = {"", "{}", "无", "none", "null", "n/a"}
_NO_ACTION = {"none", "null", "n/a", "无", "不需要", "无需工具"}


def parse_react(text: str) -> ReActStep | ParseError:
    """Read one ReAct turn: Thought, then either Action + Action Input or Final Answer.

    Labels are matched at the start of a line, case-insensitively, with an ASCII or full-width
    colon, also in bold (``**Action:**``) or in Chinese (思考 / 行动 / 行动输入 / 最终答案).
    Anything from an "Observation:" line on is dropped: the model must not write the tool's result
    itself. Whichever of Action and Final Answer comes first wins. A missing Action Input means
    ``{}`` (schema validation will complain if the tool needs arguments); an Action Input that is
    not a JSON object is a ``ParseError``. "Action: None" (written by some models before a Final
    Answer) is not an action.
    """
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in _strip_reasoning(text).splitlines():
        labelled = _react_label(line)
        if labelled is not None:
            label, rest = labelled
            if label == "observation":
                break
            sections.append((label, [rest]))
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)

    def joined(lines: list[str]) -> str:
        return "\n".join(lines).strip()

    thoughts = [joined(lines) for label, lines in sections if label == "thought"]
    thought = thoughts[0] if thoughts else (joined(preamble) or None)
    for index, (label, lines) in enumerate(sections):
        if label == "final_answer":
            return ReActStep(thought=thought, final_answer=joined(lines))
        if label != "action":
            continue
        action_text = joined(lines)
        inline_input = ""
        brace = action_text.find("{")
        if brace >= 0:  # "Action: calculate {"expression": "1+2"}" on one line
            action_text, inline_input = action_text[:brace], action_text[brace:]
        name = _clean_action_name(action_text)
        if name.lower() in _NO_ACTION:
            continue
        if not name:
            return _error(
                _Failure("Action 后面没有写工具名", "ReAct 的 Action 行没有工具名"),
                text,
                react=True,
            )
        following = sections[index + 1] if index + 1 < len(sections) else None
        input_text = inline_input or (
            joined(following[1]) if following and following[0] == "action_input" else ""
        )
        arguments = _react_input(input_text)
        if isinstance(arguments, _Failure):
            return _error(arguments, text, react=True)
        return ReActStep(thought=thought, action=name, action_input=arguments)
    return ReActStep(thought=thought)


def _react_input(text: str) -> dict[str, Any] | _Failure:
    for wrapper in _WRAPPERS:
        text = text.replace(wrapper, "")
    text = text.strip()
    if text.lower() in _NO_INPUT:
        return {}
    if text[:1] == '"':  # the object double-encoded as a JSON string, as JSON mode also accepts
        try:
            decoded = json.loads(text)
        except ValueError:
            decoded = None
        if isinstance(decoded, str):
            text = decoded.strip()
    blocks = find_json_blocks(text)
    try:
        value = _first_json_value(text, blocks)
    except ValueError as exc:
        if not blocks:
            reason = "Action Input 应该是一个用 {} 括起来的 JSON 对象"
        elif any(not block.closed for block in blocks):
            reason = "Action Input 的 JSON 不完整，括号没有闭合"
        else:
            reason = "Action Input 不是合法的 JSON"
        return _Failure(reason, f"ReAct 的 Action Input 不是 JSON 对象：{exc}")
    if not isinstance(value, dict):
        return _Failure(
            f"Action Input 应该是 JSON 对象，而你写的是{json_type_zh(value)}",
            f"ReAct 的 Action Input 是{json_type_zh(value)}，不是对象",
        )
    return value


def _react_route(text: str) -> bool:
    """Does the text use the ReAct format (an Action or Final Answer line)?"""
    for line in text.splitlines():
        labelled = _react_label(line)
        if labelled is not None and labelled[0] in ("action", "final_answer"):
            return True
    return False
