"""The turn planner: from the user's request, the offered tools and the results so far, decide this
turn.

The planner is a pure function, re-run from scratch on every turn, which is what keeps the simulator
deterministic and lets an agent's loop converge:

1. Split the request into intents (on ？ ; ， 然后 再 并且 顺便 … "and then", "and what …"). A
   clause that only gives content ("正文“…”", "原因是…", a bare quote) stays with the clause before
   it; a clause that takes an action back ("先别给他发短信", "不要预订") is no intent at all.
2. Give each intent the best-scoring tool (``choose``); intents no tool fits stay as context, and
   so does a question for a value whose subject the chosen lookup does not provide ("出发日期定在
   哪天？" to a clock, ``subjects``). A
   later clause that asks for nothing ("…，会议室的坏了") starts no call that changes something.
   Neighbouring intents for the same tool are merged when one alone lacks arguments; an intent
   asking for the very same call as an earlier one takes its next-best tool instead. When the first
   intent lacks an id the request does not give (a display name "B502", a description "能坐 10 人的
   "), a read-only lookup is planned before it (``grounding``: query, then act).
3. Fill each intent's arguments (``arguments``). An intent whose arguments need an earlier
   result — a calculator expression "100 * <rate>" after an exchange-rate lookup, an id the
   previous result contains — waits until that result is there. A lookup whose words ask for a
   derived amount ("100 美元能换多少人民币") gets an implied calculation after it, when a
   calculator-like tool is offered.
4. Match the results already received to the planned calls (same name and arguments). Calls
   without a result are made now: all that are ready when parallel calls are allowed, else the
   first. When nothing is left to call, answer from the results (``answer``); a required argument
   nobody gave becomes a clarifying question; a request no tool fits gets the fallback reply.
   A call that changes something reaches no further than the user said (``scope``: no silent
   "everyone"), and a request for personal data in bulk is declined before any tool is chosen.
   ``seen`` (the earlier rounds' calls and results) lets a name the user writes be found in what an
   earlier round returned ("那就订 B502"); it is read by every fill of the turn through a context
   variable set for the duration of ``plan_turn``, so the planner stays a function of its arguments.

Bounds: results that match no planned call (e.g. the agent rejected a malformed call) allow one
retry per intent; after that, and whenever the agent says a call was already made, the planner
answers from what it has. ``parallel=False`` gives one call per turn. ``tool_choice="none"`` never
calls; ``"required"`` and a named function force a call on every turn, as the real API does (the
named tool, or the best-scoring one, with the arguments that can be filled and examples for the
rest).

Left out: plans deeper than "each intent may use the results of the intents before it", and
anything a model would need world knowledge for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from . import people
from .actions import READ, SEND, negated, request_actions
from .answer import (
    OK,
    REPEATED,
    AnswerItem,
    clarify_question,
    compose_answer,
    fallback_reply,
    people_question,
    read_result,
    unfinished_note,
    unmet_note,
)
from .arguments import (
    DEPENDENT_WORDS,
    FillContext,
    FillOutcome,
    Param,
    best_effort_arguments,
    classify,
    evidence,
    fill_arguments,
    number_from_result,
    params_of,
)
from .arguments.carry import MAX_OBJECTS, bounds_from, objects_in
from .arguments.entities import find_enum
from .arguments.fields import chinese_labels, field_pair, field_param, set_clauses, set_only
from .arguments.filler import priced_things
from .choose import MIN_SCORE, ToolProfile, best_tool, profile, rank
from .dates import find_dates, find_times
from .grounding import display_names, lookup_tool
from .lexicon import REQUEST_WORDS, is_small_talk
from .results import tool_text
from .scope import decline_personal_data, personal_data_in_bulk, unscoped
from .shared_examples import share_examples
from .subjects import asked_subject, unprovided
from .text import (
    CJK_RANGE,
    NumberMatch,
    find_numbers,
    find_quotes,
    format_number,
    language,
    normalize,
)
from .vocabulary import TOLD, asks, assistant_says, tells_state

# The earlier rounds' calls and results for the turn being planned (``plan_turn(seen=…)``), read by
# every fill.
_SEEN: ContextVar[tuple[tuple[dict[str, Any], dict[str, Any], str], ...]] = ContextVar(
    "seen", default=()
)


@dataclass(frozen=True)
class PlannedCall:
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Plan:
    calls: list[PlannedCall]  # tool calls to make now (empty when answering)
    answer: str | None  # text when not calling: final answer, clarifying question or fallback
    kind: str  # "call" | "final" | "clarify" | "fallback"


# ---------------------------------------------------------------------------------------------
# 1. Intents
# ---------------------------------------------------------------------------------------------

_SEPARATOR = re.compile(
    r"[?;!。\n]+|,(?!(?<=\d,)\d{3}(?!\d))"
    r"|然后|之后|以后|接着|随后|并且|顺便|同时|另外|再(?![见次])"
    rf"|(?<=[{CJK_RANGE}])后(?![天面台续来端果])"
    r"|\band then\b|\bthen\b|\balso\b|\bafter that\b"
    r"|\band\b(?=\s"
    r"+(?:what|what's|how|when|where|who|which|is|are|can|could|please|tell|give|calculate|compute|check|"
    r"get|find|look|show|convert|search|send|book|multiply|divide|add)\b)",
    re.I,
)


@dataclass(frozen=True)
class Segment:
    text: str
    start: int
    end: int
    question: bool  # ended with a question mark


# Quoted text ('…' "…" “…” 「…」 《…》 …) and what follows a colon ("发短信：您好，订单已发货") is
# content, not more intents.
_AFTER_COLON = re.compile(r"(?<!\s)\s*:(?!\d).*$", re.S)  # not the colon of a time (10:30)


# What ends the content after a colon: the next step of the request ("发短信：…，然后给 lili 发邮件
# ").
NEXT_STEP = re.compile(
    r"[，,；;。.!！]\s*(?:然后|接着|随后|之后|同时|另外|并且|再(?![见次])|and"
    r" then\b|then\b|also\b)",
    re.I,
)


# a content label with a verb of saying ("内容就说…", "正文写成…"): what follows is content, like
# after a colon
_AFTER_SAYING = re.compile(
    r"(?:内容|正文|原因|理由|事由|备注|留言|说明)\s*(?:就|要|请|可以)?\s*(?:写成|写上|写着|写|说|填)"
)


def quoted_spans(text: str) -> list[tuple[int, int]]:
    spans = [(quote.start, quote.end) for quote in find_quotes(text)]
    saying = next(
        (m for m in _AFTER_SAYING.finditer(text) if not any(a <= m.start() < b for a, b in spans)),
        None,
    )
    if saying:
        stop = NEXT_STEP.search(text, saying.end())
        spans.append((saying.end(), stop.start() if stop else len(text)))
    colon = next(
        (m for m in _AFTER_COLON.finditer(text) if not any(a <= m.start() < b for a, b in spans)),
        None,
    )
    if colon:
        stop = NEXT_STEP.search(text, colon.start())
        spans.append((colon.start(), stop.start() if stop else colon.end()))
    return sorted(spans)


def completed_request(earlier: str, reply: str) -> str:
    """The request the user's reply to our question completes, read as one: the reply goes before
    the request's content ("给学员发短信：请更新联系方式" + "发给 S003" → "给学员发短信（发给
    S003）：请更新联系方式"), so it is not read as part of the message."""
    text = normalize(earlier)
    joiner = "，" if language(earlier) == "zh" else ", "
    quotes = [(q.start, q.end) for q in find_quotes(text)]
    colon = next(
        (m for m in _AFTER_COLON.finditer(text) if not any(a <= m.start() < b for a, b in quotes)),
        None,
    )
    if colon:  # in brackets, so the reply stays in the clause it completes
        return f"{text[: colon.start()]}（{normalize(reply).strip()}）{text[colon.start() :]}"
    return f"{text}{joiner}{reply}"


def answers_question(earlier: str, reply: str, plan: Callable[[str], Plan]) -> bool:
    """Whether the user's message after our clarifying question can be its answer. A message that
    asks something of its own ("我对什么过敏？" after "要换出哪种货币？") and adds nothing to the
    request it would complete — read together they plan just what that request alone did — is a
    new question: the latest message is what is answered, never the earlier request once more.
    """
    if not asks(normalize(reply)):
        return True
    return plan(completed_request(earlier, reply)) != plan(earlier)


def split_intents(text: str) -> list[Segment]:
    """Cut a request into the parts that may each need a tool."""
    text = normalize(text)
    protected = quoted_spans(text)
    segments: list[Segment] = []
    position = 0
    separators = [
        m for m in _SEPARATOR.finditer(text) if not any(a <= m.start() < b for a, b in protected)
    ]
    for match in separators + [None]:
        stop = match.start() if match else len(text)
        piece = text[position:stop]
        stripped = piece.strip(" ,")
        if stripped:
            offset = position + piece.index(stripped)
            question = bool(match and "?" in match.group(0))
            segments.append(Segment(stripped, offset, offset + len(stripped), question))
        if match:
            position = match.end()
    return segments


@dataclass
class Intent:
    segments: list[Segment]
    tool: ToolProfile
    score: float
    # a lookup made first, to find an id the next intent needs (``grounding``)
    grounds: bool = False

    @property
    def text(self) -> str:
        chinese = any(re.search(f"[{CJK_RANGE}]", s.text) for s in self.segments)
        return ("，" if chinese else " ").join(s.text for s in self.segments)


# "…，正文“请在周五前提交”", "…，内容是：…", "原因是新同事入职": a clause that only gives the
# content of the call before it.
_CONTENT_CLAUSE = re.compile(
    r"^(?:其中|并且|并|另外)?\s*(?:邮件|短信|消息|通知)?(?:的)?(?:内容|正文|原因|理由|事由|用途|主"
    r"题|标题|题目|备注|说明|留言|附言|署名)"
    r"\s*(?:是|为|(?:就|要|请|可以)?\s*(?:写|说|填)|如下|[:=“\"「『‘'《])"
    r"|^(?:with\s+)?(?:the\s+)?(?:subject|body|content|message|text|reason|title|note)\s"
    r"*(?:is|:|=|\"|“)",
    re.I,
)


# "…，预约编号是 12345", "车牌号为 V001", "…，预约编号 MU2231": a clause that only names an id or a
# name for the call before it (or, opening the request, for the one after it)
_LABEL_CLAUSE = re.compile(
    rf"^[{CJK_RANGE}]{{0,6}}(?:编号|单号|号码|号|ID|名称|名字|姓名)\s*(是|为|[:：])?\s*[\w-]+$"
)


def _with_content(segments: list[Segment], text: str) -> list[Segment]:
    """Clauses that only give content (a label and its value, or a bare quote) joined to the clause
    before them; a label and its value opening the request, to the clause after it.
    """
    text = normalize(text)
    joined: list[Segment] = []
    opening: Segment | None = None
    for segment in segments:
        bare_quote = (
            any(
                start <= segment.start and segment.end <= stop for start, stop in quoted_spans(text)
            )
            or bool(find_quotes(segment.text))
            and not scoring_text(segment.text).strip(" ,，")
        )
        another_priced = bool(
            joined
            and priced_things(joined[-1].text)
            and priced_things(segment.text)
            and _PRICED_CLAUSE.fullmatch(_MORE_LEAD.sub("", segment.text).strip())
            and not request_actions(segment.text)
        )  # "检查费 150，(还有)药费 80": the second belongs to the clause of the first
        said = _LABEL_CLAUSE.match(segment.text)  # unmarked ("预约编号 MU2231"): no verb in it
        label = bool(said and (said.group(1) or not request_actions(segment.text)))
        labelled = label or bool(
            joined and TOLD.match(segment.text) and SEND in request_actions(joined[-1].text)
        )  # "…发短信，告诉他报告已经出来了": what the message says
        if label and segment is segments[0] and len(segments) > 1:
            opening = segment  # "预约编号是 MU2231，请帮我取消预约": for the clause after it
            continue
        if joined == [] and opening is not None:
            segment = Segment(
                text[opening.start : segment.end], opening.start, segment.end, segment.question
            )
        if joined and (
            _CONTENT_CLAUSE.search(segment.text) or bare_quote or another_priced or labelled
        ):
            previous = joined[-1]
            joined[-1] = Segment(
                text[previous.start : segment.end], previous.start, segment.end, segment.question
            )
        else:
            joined.append(segment)
    return joined


def _json_or_none(raw: str) -> Any:
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return None


# a clause that is only a name and an amount ("药费 80", "还有现金 100 元")
_PRICED_CLAUSE = re.compile(
    rf"[{CJK_RANGE}]{{2,8}}\s*(?:\d+(?:\.\d+)?|[一二两三四五六七八九十百千万]+)\s*(?:元|块钱|块)?"
)
_MORE_LEAD = re.compile(r"^(?:还有|另外|另|再|以及|和|跟|外加|加上)+")


def _context(text: str, intents: list[Intent], own: Intent) -> str:
    """The request with the other intents' words blanked out."""
    chars = list(normalize(text))
    for intent in intents:
        if intent is own:
            continue
        for segment in intent.segments:
            if segment in own.segments:
                # a lookup or a calculation made for the same words: they are this intent's words
                # too
                continue
            for index in range(segment.start, segment.end):
                chars[index] = " "
    return "".join(chars)


def _fill(
    user_text: str,
    intents: list[Intent],
    intent: Intent,
    now: datetime,
    *,
    has_previous: bool,
    previous_ready: bool = False,
    previous_number: float | None = None,
    previous_texts: tuple[str, ...] = (),
    previous_calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...] = (),
    grounded: bool = False,
) -> FillOutcome:
    context = _context(user_text, intents, intent)
    named, in_lookup = _named(
        user_text, intents, intent, tuple(previous_calls) + tuple(_SEEN.get())
    )
    ctx = FillContext(
        segment=intent.text,
        context=context,
        request=user_text,
        now=now,
        has_previous=has_previous,
        previous_ready=previous_ready,
        previous_number=previous_number,
        previous_texts=previous_texts,
        previous_calls=previous_calls,
        named=named,
        named_in_lookup=in_lookup,
        grounded=grounded,
        seen_calls=_SEEN.get(),
    )
    outcome = fill_arguments(intent.tool.spec, ctx)
    if intent.grounds and not ctx.named:
        _bounds_from_action(user_text, intents, intent, now, outcome)
    if intent.grounds and ctx.named:
        # looking up a thing the user named: no filter of ours may hide it (the action says whether
        # it fits)
        required = {param.name for param in params_of(intent.tool.spec) if param.required}
        outcome.arguments = [
            {k: v for k, v in arguments.items() if k in required} for arguments in outcome.arguments
        ]
    return outcome


def _bounds_from_action(
    user_text: str, intents: list[Intent], intent: Intent, now: datetime, outcome: FillOutcome
) -> None:
    """A lookup before an action filters by what the action was given: "8 个人" for the booking's
    参会人数 is the lookup's 至少要容纳的人数 too, not its default of 1."""
    action = next((i for i in intents if not i.grounds and i.segments == intent.segments), None)
    if action is None or not outcome.arguments:
        return
    done = _fill(user_text, intents, action, now, has_previous=False)
    if not done.arguments:
        return
    params = {param.name: param for param in params_of(action.tool.spec)}
    numbers = [(params[k], v) for k, v in done.arguments[0].items() if k in params]
    own = {param.name: param for param in params_of(intent.tool.spec)}
    for name, value in bounds_from(intent.tool.spec, numbers).items():
        for arguments in outcome.arguments:
            said = arguments.get(name)
            default = own[name].schema.get("default") if own[name].has_default else None
            if said is None or said == default:
                arguments[name] = value


def _result_names(
    text: str, calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...]
) -> list[str]:
    """Values of looked-up objects that ``text`` writes out and that belong to one object only — a
    Chinese name ("春晖厅") is a name when a result shows it is one; a value several objects share
    ("A 座 3 楼") names none.
    """
    owners: dict[str, set[int]] = {}
    for _, _, raw in calls:
        try:
            data = json.loads(raw)
        except (TypeError, ValueError):
            continue
        for index, item in enumerate(objects_in(data)):
            if index >= MAX_OBJECTS:
                break
            for value in item.values():
                if isinstance(value, str) and 2 <= len(value.strip()) <= 40:
                    owners.setdefault(normalize(value.strip()), set()).add(id(item))
    return [
        value
        for value, items in owners.items()
        if len(items) == 1 and not value.isdigit() and value in text
    ]


def _named(
    user_text: str,
    intents: list[Intent],
    intent: Intent,
    calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...] = (),
) -> tuple[tuple[str, ...], bool]:
    """The display names that choose what ``intent`` acts on, and whether they come from a lookup's
    words: those in its own words, else — for an action — those in the words of the request's
    lookups ("如果明天上午 A301 有空，就帮我订9 点到 10 点": the booking is of A301, which only the
    availability question names; such a name must also fit the action's own constraints, or the step
    is not taken). A name in another action's words belongs to that action.
    """
    specs = [i.tool.spec for i in intents]
    words = scoring_text(_context(user_text, intents, intent))
    own = display_names(words, specs) or _with_people(_result_names(words, calls), words, calls)
    if own or intent.tool.reads:
        return tuple(own), False
    actions = [i for i in intents if not i.tool.reads]
    words = scoring_text(_context(user_text, actions, intent))
    inherited = display_names(words, specs) or _with_people(
        _result_names(words, calls), words, calls
    )
    return tuple(inherited), bool(inherited)


def _with_people(
    names: list[str], words: str, calls: tuple[tuple[dict[str, Any], dict[str, Any], str], ...]
) -> list[str]:
    """``names`` and the people the words name by title ("王教练"), as the results name them
    (``people.resolve``): a reference that matches no one or several stays as said, so no object
    carries it and no id is taken."""
    return list(dict.fromkeys([*names, *people.resolve(words, calls)]))


def scoring_text(text: str) -> str:
    """The words that say what to do: quoted content and text after a colon are left out."""
    text = normalize(text)
    for start, stop in reversed(quoted_spans(text)):
        text = text[:start] + " " + text[stop:]
    return text


_REASON = re.compile(r"^(?:因为|由于|because\b|since\b)", re.I)


def find_intents(
    user_text: str, tools: list[ToolProfile], now: datetime
) -> tuple[list[Intent], list[Segment]]:
    """The request's intents, each with its tool, and the segments no tool fits."""
    intents: list[Intent] = []
    unmatched: list[Segment] = []
    segments = _with_content(split_intents(user_text), user_text)
    segments = [
        s for s in segments if not negated(s.text)
    ]  # "先别发短信": an action taken back is no intent
    for position, segment in enumerate(segments):
        best = best_tool(scoring_text(segment.text), tools)
        if (
            best is not None
            and position > 0
            and not best[1].reads
            and not request_actions(scoring_text(segment.text))
        ):
            # a later clause that asks for nothing ("…，会议室的坏了") starts no call that changes
            # something
            best = None
        if best is not None and position > 0 and _REASON.match(segment.text):
            best = None  # "…，因为客人改期": why, not what to do
        if best is not None and not _provides(user_text, [segment], best[1], now):
            best = None  # "出发日期定在哪天？" to a clock: it tells today's date, not that one
        if best is None:
            unmatched.append(segment)
        else:
            intents.append(Intent([segment], best[1], best[0]))
    if not intents:
        # The request as a whole may still fit a tool its parts do not ("北京，明天天气" split in
        # two).
        best = best_tool(scoring_text(normalize(user_text)), tools)
        if best is not None and not _provides(user_text, unmatched, best[1], now):
            best = None
        if best is not None and unmatched:
            intents = [Intent(list(unmatched), best[1], best[0])]
            unmatched = []

    # Merge neighbours for the same tool when one of them alone cannot fill its arguments: a clause
    # that only supplies arguments of the call before it ("…2 台，单价 1500 元，原因是新同事入职")
    # is not a call of its own. A required argument the second one would wait for an earlier result
    # to give counts as missing ("17 乘以 9，再乘以 2" is different: its expression uses the earlier
    # result, a step of its own).
    merged: list[Intent] = []
    for position, intent in enumerate(intents):
        later = intents[
            position + 1 :
        ]  # their words are theirs: no intent fills its arguments from them
        if merged and not merged[-1].tool.reads and all(set_only(s.text) for s in intent.segments):
            # "…的名称改为小白，主人改为张三": more fields of the target named before, one change; a
            # field its tool has no parameter for is no call of its own (said not done)
            params = params_of(merged[-1].tool.spec)
            if chinese_labels(params) and not field_pair(params):
                own = [s for s in intent.segments if field_param(set_clauses(s.text)[0][0], params)]
                previous = merged[-1]
                merged[-1] = Intent(previous.segments + own, previous.tool, previous.score)
                unmatched.extend(s for s in intent.segments if s not in own)
                continue
        if merged and merged[-1].tool.name == intent.tool.name:
            previous = merged[-1]
            alone_a = _fill(user_text, merged + [intent] + later, previous, now, has_previous=False)
            alone_b = _fill(user_text, merged + [intent] + later, intent, now, has_previous=True)
            lacking_b = len(alone_b.missing) + len(alone_b.waiting)
            if alone_a.missing or lacking_b:
                joined = Intent(
                    previous.segments + intent.segments,
                    intent.tool,
                    max(previous.score, intent.score),
                )
                together = _fill(
                    user_text, merged[:-1] + [joined] + later, joined, now, has_previous=False
                )
                if len(together.missing) < len(alone_a.missing) + lacking_b:
                    merged[-1] = joined
                    continue
        merged.append(intent)

    # An intent asking for exactly the call an earlier one makes is about something else: next-best
    # tool.
    result: list[Intent] = []
    seen: list[tuple[str, str]] = []
    for intent in merged:
        outcome = _fill(user_text, merged, intent, now, has_previous=bool(result))
        key = (intent.tool.name, _canonical(outcome.arguments[0]))
        if not outcome.missing and not outcome.needs_previous and key in seen:
            alternative = best_tool(
                scoring_text(intent.text), tools, exclude=frozenset(name for name, _ in seen)
            )
            if alternative is None:
                continue
            intent = Intent(intent.segments, alternative[1], alternative[0])
            outcome = _fill(user_text, merged, intent, now, has_previous=bool(result))
            key = (intent.tool.name, _canonical(outcome.arguments[0]))
        seen.append(key)
        result.append(intent)
    result = _with_fuller_rival(user_text, result, tools, now)
    return (
        _with_implied_calculation(
            user_text, _with_lookup(user_text, result, tools, now), tools, now
        ),
        unmatched,
    )


def _with_fuller_rival(
    user_text: str, intents: list[Intent], tools: list[ToolProfile], now: datetime
) -> list[Intent]:
    """One order that changes something, and one other tool of the same action that takes all of
    what it says: the tool whose every required value the request gives, when the chosen one lacks
    some ("我想预约保洁服务，我的预约ID是…，客户ID是…" to a tool that books a new visit by its
    date and one that registers a booking by its id and the customer's), or that takes the chosen
    one's values and more ("…团体婚礼，预计60分钟，地点…" to a tool that registers without a
    duration and one that books with it). Two such tools: the choice stays (and is asked about)."""
    if len(intents) != 1 or intents[0].tool.reads:
        return intents
    first = intents[0]
    chosen = _fill(user_text, intents, first, now, has_previous=False)
    if chosen.needs_previous or chosen.unmet or len(chosen.arguments) != 1:
        return intents
    mine = {json.dumps(v, ensure_ascii=False) for v in chosen.arguments[0].values()}
    fuller = []
    for tool in tools:
        if tool.name == first.tool.name or tool.reads or tool.action != first.tool.action:
            continue
        if best_tool(scoring_text(first.text), [tool]) is None:
            continue
        intent = Intent(first.segments, tool, first.score)
        outcome = _fill(user_text, [intent], intent, now, has_previous=False)
        if outcome.missing or outcome.needs_previous or outcome.unmet:
            continue
        if len(outcome.arguments) != 1 or any(
            classify(p) == "text" for p in params_of(tool.spec) if p.name in outcome.arguments[0]
        ):
            continue  # free text takes any words: it shows nothing the request meant for it
        theirs = {json.dumps(v, ensure_ascii=False) for v in outcome.arguments[0].values()}
        if len(theirs) < len(outcome.arguments[0]):
            continue  # one value said once fills one parameter
        # more of what was said than the chosen tool takes (what the chosen one lacks among it),
        # unless the request says the chosen one's own verb and the chosen one lacks nothing
        own_verb = first.tool.description[:2] in user_text
        if mine < theirs and (chosen.missing or not own_verb):
            fuller.append(intent)
    return fuller if len(fuller) == 1 else intents


def _provides(user_text: str, segments: list[Segment], tool: ToolProfile, now: datetime) -> bool:
    """Whether a lookup provides what a question for a value asks about (``subjects``): every word
    of its subject is the tool's, a value of the call, or a word that only asks. A tool that shares
    some words with the question but not its subject ("出发日期" to a tool that tells the current
    date) does not answer it."""
    subject = asked_subject(" ".join(s.text for s in segments))
    if subject is None or not tool.reads or not segments:
        return True
    intent = Intent(list(segments), tool, 0.0)
    outcome = _fill(user_text, [intent], intent, now, has_previous=False)
    values = [value for arguments in outcome.arguments for value in arguments.values()]
    return not unprovided(subject, tool.spec, values)


def _with_lookup(
    user_text: str, intents: list[Intent], tools: list[ToolProfile], now: datetime
) -> list[Intent]:
    """Query, then act: the first intent lacks an id the request does not give ("订 B502", "订一间能
    坐 10 人的会议室"), and a read-only tool about the same thing can be called with what the
    request says — it is called first (``grounding``), and the id is taken from its result."""
    if not intents:
        return intents
    first = intents[0]
    missing = [
        p
        for p in _fill(user_text, intents, first, now, has_previous=False).missing
        if classify(p) == "pattern"
    ]
    if not missing:
        return intents

    def fillable(candidate: ToolProfile) -> bool:
        outcome = _fill(
            user_text,
            intents,
            Intent(first.segments, candidate, first.score),
            now,
            has_previous=False,
        )
        return not outcome.missing and not outcome.needs_previous

    lookup = lookup_tool(first.tool, missing, tools, fillable)
    if lookup is None:
        return intents
    return [Intent(first.segments, lookup, first.score, grounds=True)] + intents


def _computes(tool: ToolProfile) -> bool:
    """A calculator-like tool: one of its parameters takes an arithmetic expression."""
    return any(
        classify(param) == "expression" for param in params_of({"parameters": tool.parameters})
    )


def _with_implied_calculation(
    user_text: str, intents: list[Intent], tools: list[ToolProfile], now: datetime
) -> list[Intent]:
    """ "100 美元能换多少人民币": a lookup whose result must still be combined with an amount the
    user gave.

    When an intent's own call leaves the request's number unused (an exchange-rate lookup takes only
    the currencies), its words ask for a derived amount (换/兑/折合/一共 …), no calculation planned
    next works on that number already, and a calculator-like tool is offered, the calculation
    becomes one more intent over the same words; it waits for the lookup's result ("100 * <rate>").
    A later step ("再加上50 元呢") then works on that amount, not on the rate.
    """
    calculator = next((tool for tool in tools if _computes(tool)), None)
    if calculator is None:
        return intents
    extended: list[Intent] = []
    for position, intent in enumerate(intents):
        extended.append(intent)
        if _computes(intent.tool):
            continue
        numbers = [format_number(number.value) for number in find_numbers(intent.text)]
        following = intents[position + 1] if position + 1 < len(intents) else None
        if (
            following is not None
            and _computes(following.tool)
            and any(n in following.text for n in numbers)
        ):
            continue  # the next calculation already works on these numbers
        if not numbers or not DEPENDENT_WORDS.search(intent.text) or set(numbers) == {"1"}:
            # "1 英镑能换多少港币": the rate itself answers it, multiplying by 1 adds nothing
            continue
        used = json.dumps(
            _fill(user_text, intents, intent, now, has_previous=False).arguments, ensure_ascii=False
        )
        if all(number in used for number in numbers):
            continue
        extended.append(Intent(intent.segments, calculator, intent.score))
    return extended


# ---------------------------------------------------------------------------------------------
# 2. Matching results to planned calls
# ---------------------------------------------------------------------------------------------


def _canonical(arguments: dict[str, Any]) -> str:
    def tidy(value: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, dict):
            return {k: tidy(v) for k, v in value.items()}
        if isinstance(value, list):
            return [tidy(v) for v in value]
        return value

    return json.dumps(tidy(arguments), sort_keys=True, ensure_ascii=False)


@dataclass
class _State:
    intent: Intent
    calls: list[PlannedCall] = field(default_factory=list)
    matched: list[int | None] = field(default_factory=list)  # index into results per call
    missing: list[Param] = field(default_factory=list)
    blocked: bool = False  # waits for earlier results
    unmet: list[Param] = field(
        default_factory=list
    )  # "有的话…": the earlier results have no value that fits
    failed: bool = False  # earlier results came, but not what this intent needed
    also_missing: list[Param] = field(default_factory=list)  # beside an unmet id: still to ask

    @property
    def finished(self) -> bool:
        return (
            not self.blocked and not self.unmet and all(index is not None for index in self.matched)
        )


def _resolve(
    user_text: str, intents: list[Intent], results: list[tuple[PlannedCall, str]], now: datetime
) -> tuple[list[_State], list[bool]]:
    consumed = [False] * len(results)
    states: list[_State] = []
    for position, intent in enumerate(intents):
        earlier_ready = all(s.finished for s in states)
        previous_number = None
        previous_texts: list[str] = []
        previous_calls: list[tuple[dict[str, Any], dict[str, Any], str]] = []
        for state in states:
            for index in state.matched:
                if index is not None and read_result(results[index][1]).status == OK:
                    previous_texts.append(results[index][1])
                    previous_calls.append(
                        (state.intent.tool.spec, results[index][0].arguments, results[index][1])
                    )
        if states and earlier_ready:
            last = next(
                (s for s in reversed(states) if any(i is not None for i in s.matched)), None
            )
            if last is not None:
                for index in reversed([i for i in last.matched if i is not None]):
                    view = read_result(results[index][1])
                    if view.status == OK:
                        previous_number = number_from_result(results[index][1])
                        break
        outcome = _fill(
            user_text,
            intents,
            intent,
            now,
            has_previous=position > 0,
            previous_ready=earlier_ready,
            previous_number=previous_number,
            previous_texts=tuple(previous_texts) if earlier_ready else (),
            previous_calls=tuple(previous_calls) if earlier_ready else (),
            grounded=any(s.intent.grounds for s in states),
        )
        if (
            not intent.tool.reads
            and not outcome.missing
            and not outcome.needs_previous
            and not outcome.unmet
        ):
            # a call that changes something reaches no further than the user said: no silent
            # "everyone"
            wide = [
                p
                for arguments in outcome.arguments
                for p in unscoped(intent.tool.spec, arguments, scoring_text(user_text))
            ]
            outcome.missing = list({p.name: p for p in wide}.values())
        state = _State(intent)
        if outcome.unmet:
            state.unmet = outcome.unmet
            state.also_missing = outcome.missing
        elif outcome.needs_previous:
            state.blocked = not earlier_ready
            state.failed = earlier_ready
        elif outcome.missing:
            state.missing = outcome.missing
        else:
            state.calls = [
                PlannedCall(intent.tool.name, arguments) for arguments in outcome.arguments
            ]
            for call in state.calls:
                key = _canonical(call.arguments)
                match = next(
                    (
                        i
                        for i, (done, _) in enumerate(results)
                        if not consumed[i]
                        and done.name == call.name
                        and _canonical(done.arguments) == key
                    ),
                    None,
                )
                if match is not None:
                    consumed[match] = True
                state.matched.append(match)
        states.append(state)
    return states, consumed


# ---------------------------------------------------------------------------------------------
# 3. The turn
# ---------------------------------------------------------------------------------------------


def _question_of(index: int, states: list[_State], user_text: str) -> str:
    """The words a result was called for: its intent's text, or the whole request."""
    for state in states:
        if index in state.matched:
            return state.intent.text
    return user_text


def _final_answer(
    user_text: str,
    profiles: dict[str, ToolProfile],
    results: list[tuple[PlannedCall, str]],
    states: list[_State],
    consumed: list[bool],
    unmatched: list[Segment],
    lang: str,
) -> Plan:
    gave_up = not all(s.finished or s.missing or s.failed or s.unmet for s in states)
    matched_names = {results[i][0].name for i, used in enumerate(consumed) if used}
    items: list[AnswerItem] = []
    for index, (call, raw) in enumerate(results):
        spec = profiles[call.name].spec if call.name in profiles else {"name": call.name}
        view = read_result(raw, tool_text(spec))
        if view.status == REPEATED:
            earlier = [
                j
                for j in range(index)
                if results[j][0].name == call.name
                and _canonical(results[j][0].arguments) == _canonical(call.arguments)
                and read_result(results[j][1]).status != REPEATED
            ]
            if earlier:
                continue
        elif not consumed[index]:
            if call.name not in profiles and not gave_up:
                continue  # an unknown-tool attempt the retry fixed
            if view.status != OK and call.name in matched_names:
                continue  # a failed attempt the retry fixed
        background = any(index in state.matched and state.intent.grounds for state in states)
        items.append(
            AnswerItem(
                spec, call.arguments, view, raw, _question_of(index, states, user_text), background
            )
        )
    notes: list[str] = []
    questions = False
    for state in states:
        if state.unmet:
            words = scoring_text(_context(user_text, [s.intent for s in states], state.intent))
            named = display_names(words, [state.intent.tool.spec])
            looked_up = tuple(
                (profiles[call.name].spec, call.arguments, raw)
                for call, raw in results
                if call.name in profiles
            )
            unclear = people.ambiguous(words, looked_up) or [
                ("", names) for names in [people.unnamed(user_text, looked_up)] if names
            ]
            if unclear:
                notes.append(people_question(state.intent.tool.spec, unclear, lang))
                keys = {
                    str(key)
                    for _, _, raw in looked_up
                    for item in objects_in(_json_or_none(raw))
                    for key in item
                }
                rest = state.also_missing + [p for p in state.unmet if p.name not in keys]
                if rest:  # "帮我挂个号": the date and the rest are asked together
                    notes.append(
                        clarify_question(state.intent.tool.spec, rest, lang, state.intent.text)
                    )
                questions = True
                continue
            notes.append(unmet_note(state.intent.tool.spec, state.unmet, lang, named))
        elif state.failed or state.blocked:
            notes.append(unfinished_note(state.intent.text, "blocked", lang))
        elif state.missing:
            notes.append(
                clarify_question(state.intent.tool.spec, state.missing, lang, state.intent.text)
            )
            questions = True
    for segment in unmatched:
        if _NOTHING_BRANCH.search(segment.text):
            continue  # "不是的话就算了": the branch where nothing is done asks for nothing
        if _ONLY_MARKER.fullmatch(segment.text):
            continue  # "帮我 | 再订一个…": the request marker split from the order it opens
        if states and _ONLY_WHETHER_IT_WORKS.fullmatch(segment.text):
            continue  # "…，能否成功？": asks how the step above ends, the step's result says it
        if (
            request_actions(segment.text) == {READ}
            and any(state.intent.tool.reads for state in states)
            and not _ONLY_ASKING_TO_LOOK.sub("", segment.text).strip(" ,，。.!！~")
        ):
            continue  # "…，你给我瞅一眼": asks again for the lookup made, names nothing new
        if (
            (segment.question or REQUEST_WORDS.search(segment.text))
            and not is_small_talk(segment.text)
            and not tells_state(segment.text)  # "我订了 AP2045，取消掉": told, not asked
        ):
            notes.append(unfinished_note(segment.text, "no_tool", lang))
        elif _said_in_calls(segment.text, results):
            continue  # "…，4 个人": its values went into a call made for this request
        elif find_numbers(segment.text) or any(
            evidence(p.spec, segment.text) for p in profiles.values() if not p.reads
        ):
            # "…；AP2045 驱虫费 60": a part naming what a tool acts on, read as no step — said,
            # never dropped in silence
            notes.append(unfinished_note(segment.text, "unclear", lang))
    notes.extend(
        unfinished_note(said, "unclear", lang)
        for said in _unused_choices(user_text, results, profiles)
    )
    if not items and not notes:
        return Plan(
            [], fallback_reply(user_text, [p.spec for p in profiles.values()], lang), "fallback"
        )
    return Plan([], compose_answer(items, notes, lang), "clarify" if questions else "final")


def _unused_choices(
    user_text: str, results: list[tuple[PlannedCall, str]], profiles: dict[str, ToolProfile]
) -> list[str]:
    """Enum values the request names for a tool that was called, which no call of it used ("支付
    宝 600 和现金 100" with one call for alipay): never dropped in silence."""
    unused: list[str] = []
    for name in dict.fromkeys(call.name for call, _ in results):
        if name not in profiles:
            continue
        spec = profiles[name].spec
        used = {str(v) for c, _ in results if c.name == name for v in c.arguments.values()}
        for param in params_of(spec):
            if not param.enum:
                continue
            for value, (start, end) in find_enum(param, user_text):
                if str(value) not in used and user_text[start:end] not in unused:
                    unused.append(user_text[start:end])
    return unused


_ONLY_MARKER = re.compile(r"[\s,，。.!！]*(?:请|麻烦|劳驾|帮我|帮忙|给我|替我|你)*[\s,，。.!！]*")
# "能否成功？", "这样可以吗？", "行不行": a clause that only asks whether the request before it can
# be done, no request of its own
_ONLY_WHETHER_IT_WORKS = re.compile(
    r"[\s,，。.!！]*(?:请问)?\s*(?:这样|这个|那样|那)?\s*(?:能否|能不能|可否|是否|会不会|能|会)?"
    r"(?:成功|办成|做到|办到|实现|可以|行|好|可行|没问题)(?:不)?(?:成功|可以|行|好)?\s*"
    r"(?:吗|呢|么|吧)?[\s?？。.!！]*",
    re.I,
)


def _said_in_calls(text: str, results: list[tuple[PlannedCall, str]]) -> bool:
    """Whether every number of ``text`` is an argument of a call made (``"4 个人"`` with
    ``attendee_count=4``): the part was read, as part of another step."""
    words = text.strip(" ，,。.；;、")
    if words and any(
        isinstance(value, str) and words in value
        for call, _ in results
        for value in call.arguments.values()
    ):
        return True  # "RS5521，…": the part is an argument as it stands
    for call, _ in results:
        for value in call.arguments.values():
            if isinstance(value, str) and len(value) >= 2 and value in words:
                label = re.sub(r"\s*(?:是|为|改为|[:：=])\s*$", "", words.replace(value, "", 1))
                if len(label.strip()) <= (8 if len(value) >= 3 else 4) and not re.search(
                    r"[不别没非]", label
                ):
                    return True  # "电子邮件为 a@b.com", "教练是张伟": a label and the value
    numbers = find_numbers(text)
    if not numbers:
        return False
    times = find_times(text)  # "下午 3 点" is 15 in the call, not 3
    values: set[float] = set()
    for call, _ in results:
        for value in call.arguments.values():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                values.add(float(value))
            elif isinstance(value, str):
                values.update(n.value for n in find_numbers(value))

    # "周五下午3点": the 五 of a day word is no value; the day went into a call as its date
    days = [span for _, span in find_dates(text, date.today())]
    dated = any(
        isinstance(value, str) and _A_DATE.search(value)
        for call, _ in results
        for value in call.arguments.values()
    )

    def said(number: NumberMatch) -> bool:
        for (hour, _minute), (start, end) in times:
            if start <= number.start < end:
                return float(hour) in values
        if dated and any(start <= number.start < end for start, end in days):
            return True
        return number.value in values

    return all(said(n) for n in numbers)


_A_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

# a clause that only asks to look, naming nothing ("你给我瞅一眼呗", "帮我看看")
_ONLY_ASKING_TO_LOOK = re.compile(
    r"[你我他她它们给帮替把再也还就]|麻烦|请|顺便|一眼|一下|[看瞅瞧瞄查]|下|呗|吧|呢|啊|哈|嘛"
)

# the other branch of a condition when it says to do nothing ("不然就算了", "没超过就不用发",
# "没出来就先别约", "otherwise don't")
_NOTHING_BRANCH = re.compile(
    r"^(?:否则|不然|要不然|要不|如果|要是|假如|若)?\s*(?:不|没|无)[^，,。；;]{0,12}?"
    r"(?:的话)?\s*(?:那)?(?:就)?\s*(?:先)?(?:算了|不用|不必|别|不要|免了|拉倒|甭)"
    r"|^(?:否则|不然|要不然)\s*(?:就)?\s*(?:算了|不用|不必|别|不要|免了|拉倒|甭)"
    r"|^(?:otherwise|if not|else)\b.*\b(?:don't|do not|skip|leave it)\b",
    re.I,
)


def plan_turn(
    user_text: str,
    tools: list[dict],
    results: list[tuple[PlannedCall, str]],
    *,
    parallel: bool = True,
    tool_choice: str | dict | None = "auto",
    now: datetime | None = None,
    seen: tuple[tuple[dict[str, Any], dict[str, Any], str], ...] = (),
) -> Plan:
    """Plan one assistant turn for ``user_text`` given the ``tools`` offered and the ``results`` so
    far.

    ``tools`` are function specs ``{"name", "description", "parameters"}`` (OpenAI's
    ``{"type": "function", "function": {...}}`` wrapper is accepted too). ``results`` are the calls
    already made since the user's message, with the raw text each returned, in order. ``seen``: the
    calls and results of earlier rounds, as ``(spec, arguments, text)``, where a name the user
    writes may be found ("那就订 B502").
    """
    tools = share_examples(tools)  # "场地名称" reads the examples of another tool's venue
    token = _SEEN.set(tuple(seen))
    try:
        return _plan_turn(
            user_text, tools, results, parallel=parallel, tool_choice=tool_choice, now=now
        )
    finally:
        _SEEN.reset(token)


def _plan_turn(
    user_text: str,
    tools: list[dict],
    results: list[tuple[PlannedCall, str]],
    *,
    parallel: bool,
    tool_choice: str | dict | None,
    now: datetime | None,
) -> Plan:
    now = now or datetime.now()
    lang = language(user_text)
    profiles_list = [profile(tool) for tool in tools or [] if isinstance(tool, dict)]
    profiles_list = [p for p in profiles_list if p.name]
    profiles = {p.name: p for p in profiles_list}
    forced = _forced_name(tool_choice)

    if not profiles_list or tool_choice == "none":
        intents = find_intents(user_text, profiles_list, now)[0] if profiles_list else []
        if results:
            return _final_answer(user_text, profiles, results, [], [True] * len(results), [], lang)
        return Plan(
            [],
            fallback_reply(
                user_text, [p.spec for p in profiles_list], lang, tools_disabled=bool(intents)
            ),
            "fallback",
        )

    what = (
        personal_data_in_bulk(scoring_text(user_text))
        if not results and not forced and tool_choice != "required"
        else None
    )
    if what:
        return Plan([], decline_personal_data(user_text, what, lang), "final")
    voiced = assistant_says(normalize(user_text)) if not results and not forced else None
    if voiced and request_actions(voiced):  # "好的，我正在取消预约": reported, not asked for
        return Plan([], unfinished_note(voiced, "voiced", lang), "clarify")
    intents, unmatched = find_intents(user_text, profiles_list, now)
    if forced and forced in profiles:
        intents = [i for i in intents if i.tool.name == forced]
    states, consumed = _resolve(user_text, intents, results, now)

    repeated = any(read_result(raw).status == REPEATED for _, raw in results)
    strays = consumed.count(False)
    pending = [
        call
        for state in states
        if not state.blocked
        for call, index in zip(state.calls, state.matched)
        if index is None
    ]
    if repeated or strays > max(1, len(intents)):
        pending = []
    if pending:
        return Plan(pending if parallel else pending[:1], None, "call")

    plan = (
        _final_answer(user_text, profiles, results, states, consumed, unmatched, lang)
        if (results or intents)
        else Plan([], fallback_reply(user_text, [p.spec for p in profiles_list], lang), "fallback")
    )
    if plan.kind == "clarify" and not results:
        questions = [
            clarify_question(s.intent.tool.spec, s.missing, lang, s.intent.text)
            for s in states
            if s.missing
        ]
        plan = Plan([], "\n".join(questions), "clarify")

    if tool_choice == "required" or forced:
        return _forced_call(user_text, profiles_list, forced, intents, now)
    return plan


def _forced_name(tool_choice: str | dict | None) -> str | None:
    if isinstance(tool_choice, dict):
        function = tool_choice.get("function") or {}
        name = function.get("name") if isinstance(function, dict) else None
        return str(name or tool_choice.get("name") or "") or None
    return None


def _forced_call(
    user_text: str,
    tools: list[ToolProfile],
    forced: str | None,
    intents: list[Intent],
    now: datetime,
) -> Plan:
    """``tool_choice`` demands a call: the named (or best-scoring) tool, with what can be filled."""
    if forced:
        tool = next((t for t in tools if t.name == forced), None)
    else:
        tool = intents[0].tool if intents else rank(normalize(user_text), tools)[0][1]
    if tool is None:
        return Plan(
            [], fallback_reply(user_text, [t.spec for t in tools], language(user_text)), "fallback"
        )
    ctx = FillContext(
        segment=normalize(user_text), context=normalize(user_text), request=user_text, now=now
    )
    return Plan([PlannedCall(tool.name, best_effort_arguments(tool.spec, ctx))], None, "call")


__all__ = [
    "Plan",
    "PlannedCall",
    "answers_question",
    "completed_request",
    "plan_turn",
    "split_intents",
    "find_intents",
    "MIN_SCORE",
]
