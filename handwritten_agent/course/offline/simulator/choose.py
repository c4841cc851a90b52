"""Tool choice: score every offered tool against one intent of the user's request.

A tool is described by its name (split into words), its description and its parameters'
names, descriptions and enum values. The score of a request against a tool is:

- for each distinct request token (Chinese bigram or English word) found in the tool's text:
  2 if it is in the tool's name, else 1;
- for each lexicon intent the request shares with the tool: 3 if it is one of the tool's main
  intents (the ones its name mentions, and those its name and description mention most), else 1;
- 2 when a verb of the request that asks for a change (订, 提交, 发 …) is in the description of a
  tool that makes changes ("把 B502 订下来" for a tool that "预订会议室"), else 1 when the verb is
  of the tool's kind of action ("告诉王五…" for a tool that sends);
- 1 for each enum parameter one of whose values the request names ("华氏度" for ``["C", "F"]``,
  "miles" for ``["km", "mi"]``): the schema lists these values, so naming them points at the tool;
- when words, a main intent or an enum value already match, 1 for each parameter whose value the
  request visibly contains by a specific rule (an id matching the example's pattern, a city, a
  person's name, a currency) — "李四还有几天年假？" fits a tool whose parameter says "员工姓名，例
  如：张三".

A tool is a candidate only when its score reaches ``MIN_SCORE``, the thing a create/send request
acts on is one the tool deals in ("订一张机票" is no request for a meeting-room tool), and its
action (``actions``: read, send, export, create …, from its name's verb or its description's leading
verb) is one the request's verbs ask for, when both are known — "把客户名单导出给我" is not a
request to send an SMS, however many words they share; so small talk ("你好，你是谁？") calls
nothing, and a tool whose description is vague ("处理数据") is not chosen for a request its words do
not match — the lesson of the course: write clear descriptions with examples.

A tool's text also holds the synonyms, English and pinyin equivalents of its words (``vocabulary``),
so "把预约撤了" matches a tool described as "Cancel an appointment".

Left out: learned embeddings, synonyms beyond the lexicon and ``vocabulary``, and any per-tool
special case.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .actions import (
    contradicts,
    is_read_only,
    request_actions,
    request_object,
    request_verbs,
    tool_action,
)
from .arguments import classify, enum_evidence, evidence, params_of
from .lexicon import INTENTS, intents_in
from .text import normalize, split_identifier, stem, tokens
from .vocabulary import asks_about_state, expand, is_question

MIN_SCORE = 2.0
MAIN_INTENT_BONUS = 3.0
SIDE_INTENT_BONUS = 1.0
VERB_BONUS = 2.0
FAMILY_BONUS = 1.0


@dataclass(frozen=True)
class ToolProfile:
    """What the simulator knows about one tool, read once from its spec."""

    name: str
    description: str
    parameters: dict[str, Any]
    name_tokens: frozenset[str]
    text_tokens: frozenset[str]
    main_intents: frozenset[str]
    side_intents: frozenset[str] = field(default_factory=frozenset)
    action: str | None = None  # what the tool does (``actions``): read, send, export, create …
    # takes free text or a thing to act on (a message, an item), not only ids, times and numbers
    open_object: bool = True

    @property
    def reads(self) -> bool:
        """Only reads: looking something up never changes anything (``actions.is_read_only``)."""
        return is_read_only(self.action)

    @property
    def spec(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


def unwrap_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """Accept either a bare function spec or OpenAI's ``{"type": "function", "function":
    {...}}``.
    """
    if tool.get("type") == "function" and isinstance(tool.get("function"), dict):
        return tool["function"]
    return tool


def _parameter_text(parameters: dict[str, Any]) -> str:
    parts: list[str] = []
    for name, schema in (parameters.get("properties") or {}).items():
        if not isinstance(schema, dict):
            continue
        parts.append(" ".join(split_identifier(name)))
        parts.append(str(schema.get("description", "")))
        for value in schema.get("enum") or []:
            parts.append(str(value))
        for value in schema.get("examples") or []:
            parts.append(str(value))
    return " ".join(parts)


_ASCII_TRIGGERS = {
    intent: re.compile(
        "|".join(rf"(?<![a-z]){re.escape(t)}(?![a-z])" for t in triggers if t.isascii())
    )
    for intent, triggers in INTENTS.items()
}


def _intent_counts(text: str) -> Counter[str]:
    low = normalize(text).lower()
    counts: Counter[str] = Counter()
    for intent, triggers in INTENTS.items():
        counts[intent] += len(_ASCII_TRIGGERS[intent].findall(low))
        counts[intent] += sum(low.count(trigger) for trigger in triggers if not trigger.isascii())
    return counts


def profile(tool: dict[str, Any]) -> ToolProfile:
    """Read a tool spec once (cached by its JSON text: the same tools come with every request)."""
    spec = unwrap_tool(tool)
    return _profile(
        json.dumps(spec, ensure_ascii=False, default=str)
    )  # key order kept: arguments follow it


@lru_cache(maxsize=512)
def _profile(spec_json: str) -> ToolProfile:
    spec = json.loads(spec_json)
    name = str(spec.get("name", ""))
    description = str(spec.get("description", "") or "")
    parameters = spec.get("parameters") or {}
    name_words = " ".join(split_identifier(name))
    name_tokens = frozenset(stem(w) for w in split_identifier(name)) | frozenset(tokens(name_words))
    param_text = _parameter_text(parameters)
    text_tokens = frozenset(tokens(description)) | frozenset(tokens(param_text)) | name_tokens
    text_tokens |= frozenset(
        tokens(expand(f"{name_words} {description}"))
    )  # synonyms, English, pinyin
    # Main intents: those the name and description mention most (the name counts double).
    counts = _intent_counts(name_words) + _intent_counts(name_words) + _intent_counts(description)
    counts = Counter({k: v for k, v in counts.items() if v > 0})
    top = max(counts.values(), default=0)
    main = frozenset(k for k, v in counts.items() if v == top and top > 0) | intents_in(
        name_words
    )  # what its name says it is
    side = (frozenset(counts) | intents_in(param_text) | intents_in(description)) - main
    open_object = any(
        classify(param) in ("text", "thing", "literal", "unknown") for param in params_of(spec)
    )
    return ToolProfile(
        name=name,
        description=description,
        parameters=parameters,
        name_tokens=name_tokens,
        text_tokens=text_tokens,
        main_intents=main,
        side_intents=side,
        action=tool_action(name, description),
        open_object=open_object,
    )


def score(request: str, tool: ToolProfile) -> float:
    """How well ``tool`` fits ``request`` (see the module docstring for the formula)."""
    total = 0.0
    for tok in set(tokens(request)):
        if tok in tool.name_tokens:
            total += 2.0
        elif tok in tool.text_tokens:
            total += 1.0
    wanted = intents_in(request)
    total += MAIN_INTENT_BONUS * len(wanted & tool.main_intents)
    if (
        tool.action
        and not tool.reads
        and any(verb in tool.description for verb in request_verbs(request))
    ):
        # "把 B502 订下来" to a tool that 预订s: the verb the tool's description uses
        total += VERB_BONUS
    elif (
        tool.action
        and not tool.reads
        and tool.action in request_actions(request)
        and not request_object(request)
    ):
        # "告诉王五…" to a tool that sends: the same kind of action, in other words
        total += FAMILY_BONUS
    total += enum_evidence(
        tool.spec, request
    )  # values the schema lists by name ("华氏度" for enum ["C", "F"])
    if total > 0:  # only words or a main intent open the door to the weaker signals
        total += evidence(tool.spec, request)
    total += SIDE_INTENT_BONUS * len(wanted & tool.side_intents)
    return total


def rank(request: str, tools: list[ToolProfile]) -> list[tuple[float, ToolProfile]]:
    """Tools by descending score; ties keep the order the tools were offered in."""
    scored = [(score(request, tool), index, tool) for index, tool in enumerate(tools)]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(value, tool) for value, _, tool in scored]


def best_tool(
    request: str, tools: list[ToolProfile], *, exclude: frozenset[str] = frozenset()
) -> tuple[float, ToolProfile] | None:
    """The best-scoring tool at or above ``MIN_SCORE`` (skipping names in ``exclude`` and tools
    whose action contradicts the one the request asks for: no SMS tool for "导出客户名单"), or
    ``None``."""
    wanted = request_actions(request)
    thing = request_object(request)
    for value, tool in rank(request, tools):
        if tool.name in exclude or contradicts(wanted, tool.action) or _other_object(thing, tool):
            continue
        if not wanted and tool.action is not None and not tool.reads and is_question(request):
            # "VS5521 那个号还在不": a question that names no action never triggers a side effect
            continue
        if not tool.reads and asks_about_state(request):
            # "PO7781 撤了吗": whether it happened, never a reason to make it happen
            continue
        if value >= MIN_SCORE:
            return value, tool
        break
    return _reader_for_question(request, tools, exclude) if not wanted else None


# Characters that carry no topic: particles, pronouns, measure words, question words.
_FUNCTION_CHARS = frozenset(
    "的了吗呢么嘛吧啊呀哦没不是有在我你他她它们这那个一和与及就还都也很要想请帮给把被"
)
QUESTION_MARGIN = 1  # the best reader must share this many more characters than the next one


def _characters(text: str) -> set[str]:
    low = normalize(f"{text} {expand(text)}").lower()
    chars = {ch for ch in low if "\u4e00" <= ch <= "\u9fff" and ch not in _FUNCTION_CHARS}
    return chars | {w for w in re.findall(r"[a-z]{3,}", low)}


def _reader_for_question(
    request: str, tools: list[ToolProfile], exclude: frozenset[str]
) -> tuple[float, ToolProfile] | None:
    """For a question no tool scored for ("瑜伽课明天开没？"), the read-only tool whose text shares
    clearly the most characters (synonyms included) with it — a lookup that can answer it, never a
    side effect; ``None`` when none shares two or two are close, so the reply says it does not
    know."""
    if not is_question(request) or asks_about_state(request):
        return None
    asked = _characters(request)
    scored = sorted(
        (
            (len(asked & _characters(f"{t.name} {t.description}")), t)
            for t in tools
            if t.reads and t.name not in exclude
        ),
        key=lambda pair: -pair[0],
    )
    if not scored or scored[0][0] < 2:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < QUESTION_MARGIN:
        return None
    return float(MIN_SCORE), scored[0][1]


def _other_object(thing: str | None, tool: ToolProfile) -> bool:
    """The request books, buys or sends a thing this tool does not deal in ("订一张机票" to a tool
    that books meeting rooms): the tool takes no free text or thing of the user's, and its Chinese
    text never mentions the thing.
    """
    if not thing or tool.open_object or not re.search(r"[\u4e00-\u9fff]", tool.description):
        return False
    return not set(tokens(thing)) & tool.text_tokens
