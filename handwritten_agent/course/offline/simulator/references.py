"""Multi-turn references: a request that leans on earlier rounds of the conversation.

Two rules, both reading only the messages before the latest user message and the tools' schemas:

- **Carry-over.** "北京明天天气怎么样？" then "那上海呢？": the new request names a city and
  nothing else. When a request is a follow-up (那…/…呢/换成…/what about …), its call is the
  latest earlier call of the same tool with the arguments the new request *gives* replaced — so
  ``get_weather(city=上海, date=tomorrow)``: the date is carried over instead of falling back to the
  schema default. An argument counts as given when the simulator finds it in the new words with the
  schema defaults removed. A request no tool fits ("那上海呢？" to a planner that scored nothing)
  takes the tools of the latest earlier call in turn.
- **The earlier result.** "刚才那个结果乘以 2": a phrase that points at an earlier result (刚才的结
  果,上面的答案, that result …) is replaced with the latest number an earlier tool returned, and the
  request is planned again ("153 乘以 2").

Everything else — which tool, how to fill the rest, the answer once the result is back — is the
planner's and the answer writer's; this module only changes what they are given, the same way on
every turn of a run, so the result of the carried-over call is recognised when it comes back.

Left out: references to anything but tool calls and numeric results ("第二个会议室", "他"), and
carrying arguments across different tools.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ....messages import message_text, parse_arguments
from .answer import AnswerItem, compose_answer, read_result
from .arguments import FillContext, fill_arguments, number_from_result
from .choose import unwrap_tool
from .planner import Plan, PlannedCall
from .results import tool_text
from .text import format_number, language, normalize

FOLLOW_UP = re.compile(
    r"^\s*(?:那么?|那要是|要是|如果是|换成|改成|换个|还有|再看看|也)|呢\s*[?？!！。.]*\s*$|"
    r"^\s*(?:what|how) about\b|^\s*and\b|\binstead\b",
    re.I,
)
RESULT_REFERENCE = re.compile(
    r"(?:刚才|刚刚|上面|前面|之前|上一步|上一个|上次|这个|那个)(?:的)?(?:那个|这个)?(?:结果|答案|得"
    r"数|数字|数)"
    r"|(?<![\u4e00-\u9fff])(?:结果|答案|得数)(?=[\s]*(?:乘|除|加|减|再|的|[*/+\-×÷]))"
    r"|\b(?:that|the|this|previous|last) (?:result|answer|number)\b",
    re.I,
)


@dataclass(frozen=True)
class EarlierCall:
    name: str
    arguments: dict[str, Any]


def earlier_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages before the latest user message (the earlier rounds)."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    return messages[: max(last_user, 0)]


def earlier_calls(messages: list[dict[str, Any]]) -> list[EarlierCall]:
    """Every tool call of the earlier rounds, latest first."""
    found = []
    for message in reversed(earlier_messages(messages)):
        for call in reversed(message.get("tool_calls") or []):
            function = call.get("function") or {}
            try:
                arguments = parse_arguments(function.get("arguments"))
            except ValueError:
                continue
            found.append(EarlierCall(str(function.get("name", "")), arguments))
    return found


def latest_number(messages: list[dict[str, Any]]) -> float | None:
    """The number the latest earlier tool result returned, if any."""
    for message in reversed(earlier_messages(messages)):
        if message.get("role") == "tool":
            number = number_from_result(message_text(message))
            if number is not None:
                return number
    return None


def with_result_number(user_text: str, messages: list[dict[str, Any]]) -> str | None:
    """The request with "刚才那个结果" replaced by the latest earlier numeric result, or
    ``None``.
    """
    text = normalize(user_text)
    if not RESULT_REFERENCE.search(text):
        return None
    number = latest_number(messages)
    if number is None:
        return None
    return (
        RESULT_REFERENCE.sub(lambda _: f" {format_number(number)} ", text, count=1)
        .replace(" 再", " ")
        .strip()
    )


def _without_defaults(spec: dict[str, Any]) -> dict[str, Any]:
    spec = json.loads(json.dumps(spec))
    for schema in ((spec.get("parameters") or {}).get("properties") or {}).values():
        if isinstance(schema, dict):
            schema.pop("default", None)
    return spec


def given_arguments(spec: dict[str, Any], text: str, now: datetime) -> list[dict[str, Any]]:
    """The argument sets the words of ``text`` give for ``spec`` (defaults left out); empty sets
    dropped.
    """
    ctx = FillContext(segment=text, context=text, request=text, now=now)
    outcome = fill_arguments(_without_defaults(spec), ctx)
    return (
        [arguments for arguments in outcome.arguments if arguments]
        if not outcome.needs_previous
        else []
    )


def _canonical(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, sort_keys=True, ensure_ascii=False)


def carried_calls(
    plan: Plan,
    user_text: str,
    specs: list[dict[str, Any]],
    messages: list[dict[str, Any]],
    now: datetime,
) -> list[PlannedCall] | None:
    """The calls of a follow-up with earlier arguments carried over, or ``None`` when the rule does
    not apply.
    """
    calls = earlier_calls(messages)
    if not calls:
        return None
    by_name = {str(unwrap_tool(spec).get("name")): unwrap_tool(spec) for spec in specs}
    follow_up = bool(FOLLOW_UP.search(normalize(user_text)))

    def merged(name: str) -> list[PlannedCall]:
        previous = next((c for c in calls if c.name == name), None)
        spec = by_name.get(name)
        if previous is None or spec is None:
            return []
        return [
            PlannedCall(name, {**previous.arguments, **given})
            for given in given_arguments(spec, user_text, now)
        ]

    if not follow_up:
        return None
    if plan.kind == "call":
        revised: list[PlannedCall] = []
        for call in plan.calls:
            revised.extend(merged(call.name) or [call])
        return revised if revised != plan.calls else None
    if plan.kind not in ("fallback", "clarify"):
        return None
    for name in dict.fromkeys(c.name for c in calls):  # the latest earlier call's tool first
        revised = merged(name)
        if revised:
            return revised
    return None


def carry_over(
    plan: Plan,
    user_text: str,
    specs: list[dict[str, Any]],
    results: list[tuple[PlannedCall, str]],
    messages: list[dict[str, Any]],
    *,
    parallel: bool,
    now: datetime,
) -> Plan:
    """``plan`` revised by the carry-over rule: the carried calls now, or the answer once their
    results are back.
    """
    calls = carried_calls(plan, user_text, specs, messages, now)
    if not calls:
        return plan
    done = {(call.name, _canonical(call.arguments)): raw for call, raw in results}
    pending = [call for call in calls if (call.name, _canonical(call.arguments)) not in done]
    if pending:
        return Plan(pending if parallel else pending[:1], None, "call")
    lang = language(user_text)
    by_name = {str(unwrap_tool(spec).get("name")): unwrap_tool(spec) for spec in specs}
    items = []
    for call in calls:
        raw = done[(call.name, _canonical(call.arguments))]
        items.append(
            AnswerItem(
                by_name[call.name],
                call.arguments,
                read_result(raw, tool_text(by_name[call.name])),
                raw,
                user_text,
            )
        )
    return Plan([], compose_answer(items, [], lang), "final")


__all__ = [
    "FOLLOW_UP",
    "RESULT_REFERENCE",
    "carried_calls",
    "carry_over",
    "earlier_calls",
    "given_arguments",
    "latest_number",
    "with_result_number",
]
