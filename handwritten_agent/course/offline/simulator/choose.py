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

Two tools that change things must not be told apart by luck: when the best one does not beat every
other such tool by ``WRITE_MARGIN`` ("SUB-204 搞一下" fits pause, resume and stop alike), or when no
tool scores but the request's id fits two of them ("LN7730 弄一下"), the one whose text shares
clearly more of the request's own characters that the rivals do not all share wins ("给他批了" →
批准, not 驳回); if none does, nothing is chosen and the reply asks which one (``rivals_for``). A
request that negates a tool's verb ("QJ3301 不批", "别退订") changes nothing at all. A question (a
particle, a "?", or a question word: "到哪了", "什么情况") never triggers a tool that changes things
unless it names that tool's action, and at equal score a lookup comes first; a question, or a
request to look something up ("查一下 WX2001"), with an id or a listed example value that exactly
one lookup takes goes to that lookup. A synonym of the tool's verb counts as its verb ("买" for
采购).

An order whose verb no family lists is matched by that verb too (``fits_verb``): a lookup is not
chosen for "帮我续借一本书" (it does not renew, and its keyword would be the order itself), nor a
tool that borrows or reserves for a verb the vocabulary knows as renewing.

Left out: learned embeddings, synonyms beyond the lexicon and ``vocabulary``, any per-tool
special case, and word senses (a character shared by chance counts like a verb in the tie-break).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .actions import (
    CREATE,
    PAY,
    READ,
    contradicts,
    is_read_only,
    ordered_verb,
    reading_verb,
    request_actions,
    request_object,
    request_verbs,
    tool_action,
)
from .arguments import classify, enum_evidence, evidence, examples_of, params_of
from .lexicon import INTENTS, NOT_TRIGGERS, intents_in
from .text import normalize, split_identifier, stem, tokens
from .vocabulary import asks, asks_about_state, asks_politely, expand, members, tells_state

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
    low = NOT_TRIGGERS.sub(" ", normalize(text).lower())
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
        tokens(expand(f"{name_words} {description} {param_text}"))
    )  # synonyms, English, pinyin (of the parameters' words too: "e.g. latte" is 拿铁)
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
    if tool.action and not tool.reads and _names_verb(request, tool):
        # "把 B502 订下来" to a tool that 预订s: the verb the tool's description uses, or one of
        # its synonyms ("买" to a tool that 采购s)
        total += VERB_BONUS
    elif (
        tool.action
        and not tool.reads
        and tool.action in request_actions(request)
        and not request_object(request)
    ):
        # "告诉王五…" to a tool that sends: the same kind of action, in other words
        total += FAMILY_BONUS
    elif tool.reads and _LOOKUP_VERB.search(request) and _only_reads(request):
        # "查一下包间" to a tool that looks rooms up: a verb of looking up, nothing else asked, and
        # the thing looked up among the tool's words (not only the verb: "看看天气")
        if _looked_up(request) & (tool.name_tokens | tool.text_tokens):
            total += FAMILY_BONUS
    total += enum_evidence(
        tool.spec, request
    )  # values the schema lists by name ("华氏度" for enum ["C", "F"])
    if total > 0:  # only words or a main intent open the door to the weaker signals
        total += evidence(tool.spec, request)
    total += SIDE_INTENT_BONUS * len(wanted & tool.side_intents)
    return total


# a verb that asks to look something up, as said ("查一下", "看看", "列出"), not a question's form
_LOOKUP_VERB = re.compile(
    r"(?<!检)查(?!收)|看看|看一下|看下|瞧瞧|瞅瞅|找一下|找找|搜|检索|列出|显示"
    r"|\b(?:check|look up|find|search|show|list)\b",
    re.I,
)


def _only_reads(request: str) -> bool:
    return request_actions(request) == {READ}


def _looked_up(request: str) -> set[str]:
    """The words of what the lookup verb is about: its clause after it ("查一下包间，…" → 包间),
    not the content of another clause ("主题：天气")."""
    verb = _LOOKUP_VERB.search(request)
    if not verb:
        return set()
    clause = re.split(r"[，,。；;？?！!：:]", request[verb.end() :], maxsplit=1)[0]
    return set(tokens(re.sub(r"^\s*(?:一下|下|一眼)", "", clause)))


# what turns a verb into a noun after it ("预约号", "订单", "登记表"): no verb of the description
_NOUN_AFTER_VERB = "号单码表费人"


def _names_verb(request: str, tool: ToolProfile) -> bool:
    """The tool's description uses the request's verb, or a synonym, as a verb."""
    return any(
        _verb_in(word, tool.description)
        for verb in request_verbs(request)
        for word in (verb, *(w for w in expand(verb).split() if len(w) >= 2))
    )


def _two_actions(request: str, description: str) -> bool:
    """A tool described by two actions, one of them the request's ("预约或取消会议" for 取消)."""
    return any(
        re.search(rf"(?:或者?|/){re.escape(v)}|{re.escape(v)}(?:或者?|/)", description)
        for v in request_verbs(request)
    )


def _verb_in(word: str, description: str) -> bool:
    """``word`` used as a verb in ``description``: not as the head of a noun ("预约号")."""
    if not re.search(r"[\u4e00-\u9fff]", word):
        return word in description
    return bool(re.search(rf"{re.escape(word)}(?![{_NOUN_AFTER_VERB}])", description))


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
    refused = any(negates(request, tool) for tool in tools if not tool.reads)
    question = asks(request) and not asks_politely(request)
    eligible: list[tuple[float, ToolProfile]] = []
    ranked = rank(request, tools)
    if question:  # a question: at equal score, a lookup before a tool that changes things
        ranked.sort(key=lambda pair: (-pair[0], not pair[1].reads))
    set_aside = 0.0  # the best score of a lookup the order's verb rules out
    for value, tool in ranked:
        if tool.name in exclude or _other_object(thing, tool):
            continue
        if not fits_verb(tool, request):
            if tool.reads and not wanted:
                set_aside = max(set_aside, value)
            continue
        if (
            contradicts(wanted, tool.action)
            and not (question and tool.reads)
            and not _records_payment(wanted, tool)
            and not (not tool.reads and _two_actions(request, tool.description))
        ):
            # a lookup is never contradicted by a question ("BX7781 卡在哪了？" asks, not pays)
            continue
        if not tool.reads and refused:
            # "QJ3301 不批": a change the request says not to make, nor any other in its place
            continue
        if not wanted and tool.action is not None and not tool.reads and asks(request):
            # "VS5521 那个号还在不": a question that names no action never triggers a side effect
            continue
        if not tool.reads and _ASKS_WHETHER_TO.search(request):
            # "是不是该结单？", "要不要退？": asks whether to do it — the user decides, not us
            continue
        if not tool.reads and (asks_about_state(request) or tells_state(request)):
            # "PO7781 撤了吗", "CD2207 已经退掉了": whether it happened, never a reason to make
            # it happen
            continue
        eligible.append((value, tool))
    if eligible and not eligible[0][1].reads and eligible[0][0] <= set_aside:
        # "退下一个房间": the lookup it fits best does not 退; a tool that changes things takes its
        # place only when its words hold the verb ("GD778 派一下" to a tool that 派工s), never one
        # that only comes next in line (a tool that reserves rooms)
        verb = other_verb(request) or ""
        eligible = [pair for pair in eligible if pair[1].reads or _holds_verb(pair[1], verb)]
    if eligible and eligible[0][0] >= MIN_SCORE:
        value, tool = eligible[0]
        rivals = close_rivals(eligible)
        if tool.reads or not rivals:
            return value, tool
        winner = by_characters(request, rivals)
        return (value, winner) if winner else None  # alike: ask, never pick one
    pool = _id_pool(request, [t for _, t in eligible])
    winner = by_characters(request, pool) if not asks(request) else None
    if winner is not None:
        return MIN_SCORE, winner  # "LN6102 能续就续": the id fits two tools, one verb fits one
    reading = bool(wanted) and wanted <= {READ}  # "查一下 WX2001": a lookup is asked for
    if not wanted or question or reading:
        return _reader_for_question(request, tools, exclude, reading)
    return None


def fits_verb(tool: ToolProfile, request: str) -> bool:
    """Whether ``tool`` may do what the verb of the order asks (``actions.ordered_verb``), where the
    action families do not already tell:

    - a lookup, for an order whose verb asks for more than finding something out, only when the verb
      is its own ("帮我续借一本书" to a tool that searches the catalog: a lookup does not renew,
      however many words it shares with the request — and its keyword would be "续借一本书");
    - a tool that changes things, for a verb the vocabulary knows and no family lists, only when its
      words name that verb or a synonym ("续借 BK1024" to a tool that borrows or reserves books: a
      character shared, 借, is no verb).

    A lookup set aside this way lets no tool that changes things take its place (``best_tool``):
    "退下一个房间" fits a room listing best, and is no request to reserve one either.
    """
    verb = other_verb(request)
    if verb is None:
        return True
    if tool.reads:
        return does_verb(tool, verb)
    if request_actions(request):
        return True  # a verb a family lists: the families decide
    if verb in members(verb):
        return verb in members(_tool_words(tool))
    return True


def _holds_verb(tool: ToolProfile, verb: str) -> bool:
    """Whether the tool's words (synonyms included) hold a character of ``verb`` that says what it
    does ("派" in 派工, "收" in 收款 for "Record a payment"), not one that only completes it ("下"
    of 退下)."""
    words = _tool_words(tool)
    return bool((set(verb) - _COMPLEMENTS) & set(f"{words} {expand(words)}"))


# characters that complete a verb rather than say what it does ("退下", "拿掉", "交出")
_COMPLEMENTS = frozenset("下上来去出进回过到掉完好成住开起了着一个")


def other_verb(request: str) -> str | None:
    """The verb the request orders when it asks for more than finding something out ("帮我续借一本
    书" → 续借), else None (a question, a lookup, no verb at the start)."""
    if asks(request) and not asks_politely(request):
        return None  # "TK-5120 咋样了", "QJ3301 批了没": a question orders nothing
    verb = ordered_verb(request)
    return verb if verb and not reading_verb(verb) else None


def _tool_words(tool: ToolProfile) -> str:
    return f"{' '.join(split_identifier(tool.name))} {tool.description}"


def does_verb(tool: ToolProfile, verb: str) -> bool:
    """Whether ``tool`` does what ``verb`` asks: the verb (or a synonym) is its name's or its
    description's leading verb, or the verb names the tool's main subject ("兑换" for a tool about
    exchange rates)."""
    words = {verb, *expand(verb).split()}
    own = {w.lower() for w in split_identifier(tool.name)} | set(_leading_words(tool.description))
    return bool(words & own) or bool(intents_in(verb) & tool.main_intents)


# a question whether something should be done: advice asked for, not an order
_ASKS_WHETHER_TO = re.compile(
    r"(?:是不是|是否)(?:应该|该|要|需要|得)|该不该|应不应该|要不要|需不需要|用不用"
    r"|\b(?:should i|do i need to)\b",
    re.I,
)


def _records_payment(wanted: frozenset[str], tool: ToolProfile) -> bool:
    """ "AP2031 收了检查费 150" to a tool that 登记收费: money received is recorded by a tool that
    creates a record of payments (its description speaks of paying)."""
    return (
        wanted == {PAY}
        and tool.action == CREATE
        and "pay" in f"{tool.description} {expand(tool.description)}".lower().split()
    )


def _id_pool(request: str, tools: list[ToolProfile]) -> list[ToolProfile]:
    """The tools that change things and whose id the request carries, when two or more do."""
    pool = [t for t in tools if not t.reads and evidence(t.spec, request) > 0]
    return pool if len(pool) > 1 else []


def by_characters(request: str, rivals: list[ToolProfile]) -> ToolProfile | None:
    """Among tools that fit a request alike (same object, same kind of id), the one whose text
    (synonyms, English and pinyin equivalents included) shares clearly more of the request's
    characters that the rivals do not all share — the verb ("给他批了" → 批准, not 驳回); None
    when no rival wins by ``QUESTION_MARGIN``."""
    if len(rivals) < 2:
        return None
    texts = {
        t.name: _characters(f"{t.description} {_parameter_text(t.parameters)}") for t in rivals
    }
    common = set.intersection(*texts.values())
    asked = _characters_plain(request) - common
    counts = sorted(((len(asked & texts[t.name]), t) for t in rivals), key=lambda p: -p[0])
    if counts[0][0] >= 1 and counts[0][0] - counts[1][0] >= QUESTION_MARGIN:
        return counts[0][1]
    return None


def _characters_plain(text: str) -> set[str]:
    """The request's own topic characters (no synonyms: a synonym would match every rival)."""
    low = normalize(text).lower()
    return {ch for ch in low if "\u4e00" <= ch <= "\u9fff" and ch not in _FUNCTION_CHARS}


WRITE_MARGIN = 1.0  # a tool that changes things must beat every other such tool by this much


def close_rivals(ranked: list[tuple[float, ToolProfile]]) -> list[ToolProfile]:
    """The tools that change things and score within ``WRITE_MARGIN`` of the best one, when the
    best one changes things too and there are two or more of them ("SUB-204 搞一下" fits pause,
    resume and stop alike); else []."""
    if not ranked or ranked[0][1].reads or ranked[0][0] < MIN_SCORE:
        return []
    top = ranked[0][0]
    close = [t for v, t in ranked if not t.reads and v > top - WRITE_MARGIN]
    return close if len(close) > 1 else []


def rivals_for(request: str, tools: list[ToolProfile]) -> list[ToolProfile]:
    """The write tools a request fits alike (``close_rivals`` over the tools its action allows)."""
    wanted = request_actions(request)
    thing = request_object(request)
    ranked = [
        (v, t)
        for v, t in rank(request, tools)
        if not contradicts(wanted, t.action)
        and not _other_object(thing, t)
        and fits_verb(t, request)
    ]
    return close_rivals(ranked) or _id_pool(request, [t for _, t in ranked])


_NEGATED_VERB = re.compile(r"(?:不|别|甭|勿|没)(?:要|再|用|能|给|必|准备)?([\u4e00-\u9fff])")


def negates(request: str, tool: ToolProfile) -> bool:
    """The request says not to do what this tool does ("不批" to a tool that 批准s, "别退订" to one
    that stops a subscription, 退订): a negation right before the first character of one of the
    tool's verbs (its description's leading word, and the glossary members of the groups its name
    or that word belongs to) — never of a word the tool only mentions ("记录用户是否同意")."""
    low = normalize(request)
    heads = {m[1] for m in _NEGATED_VERB.finditer(low)}
    if not heads:
        return False
    leading = _leading_words(tool.description)
    verbs = set(leading) | members(f"{' '.join(split_identifier(tool.name))} {' '.join(leading)}")
    return any(w[:1] in heads and not w.isascii() for w in verbs)


def _leading_words(description: str) -> list[str]:
    """The verb a description starts with ("批准一条…" → 批准, "Stop (terminate) …" → stop,
    terminate): what the tool does, not what it mentions."""
    match = re.match(r"\s*(?:请|帮|用于|用来)?([\u4e00-\u9fff]{2})", description)
    if match:
        return [match[1]]
    match = re.match(r"\s*([A-Za-z]+)(?:\s*\(([A-Za-z]+)\))?", description)
    return [w.lower() for w in match.groups() if w] if match else []


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
    request: str, tools: list[ToolProfile], exclude: frozenset[str], reading: bool = False
) -> tuple[float, ToolProfile] | None:
    """For a question no tool scored for ("瑜伽课明天开没？"), the read-only tool whose text shares
    clearly the most characters (synonyms included) with it — a lookup that can answer it, never a
    side effect; ``None`` when none shares two or two are close, so the reply says it does not
    know. A request to look something up (``reading``) counts as a question."""
    if not asks(request) and not reading:
        return None
    readers = [t for t in tools if t.reads and t.name not in exclude and fits_verb(t, request)]
    carrying = [
        t for t in readers if evidence(t.spec, request) > 0 or _names_an_example(t.spec, request)
    ]
    if len(carrying) == 1:
        return float(MIN_SCORE), carrying[0]  # "TK-3391 谁在跟": the one lookup its id fits
    if asks_about_state(request) or not asks(request):
        return None  # a request to look up ("看看天气") needs a value a lookup takes
    asked = _characters(request)
    scored = sorted(
        ((len(asked & _characters(f"{t.name} {t.description}")), t) for t in readers),
        key=lambda pair: -pair[0],
    )
    if not scored or scored[0][0] < 2:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < QUESTION_MARGIN:
        return None
    return float(MIN_SCORE), scored[0][1]


def _names_an_example(spec: dict[str, Any], request: str) -> bool:
    """The request names a value a parameter gives as its example ("内胎" for "part name, e.g.
    内胎")."""
    text = normalize(request)
    return any(len(str(e)) >= 2 and str(e) in text for p in params_of(spec) for e in examples_of(p))


def _other_object(thing: str | None, tool: ToolProfile) -> bool:
    """The request books, buys or sends a thing this tool does not deal in ("订一张机票" to a tool
    that books meeting rooms): the tool takes no free text or thing of the user's, and its Chinese
    text never mentions the thing.
    """
    if not thing or tool.open_object or not re.search(r"[\u4e00-\u9fff]", tool.description):
        return False
    return not set(tokens(thing)) & tool.text_tokens
