"""What the simulator says in words: final answers from tool results, clarifying questions, the
fallback.

A final answer is one short sentence per question asked, aimed at the question, built from the
result's data (``facts``), the question's words and the tool's schema (``phrasing``) — never from a
per-tool template, never by dumping ``key: value`` pairs, never with the tool's description as a
label:

- a calculation answers in words: "17 乘以 9 等于 153";
- a number the question asked for goes back into the question: "100 美元能换 720 元人民币";
- a calculation on an earlier result says what it rests on, once: "按 1 美元 = 7.2 元人民币（示例汇
  率，非实时），100 美元能换 720 元人民币";
- a date-time says when: "现在是 2026 年 3 月 12 日（星期四）14:30";
- other data reads as subject + facts + caveats: "北京明天多云，温度 4 到 15 摄氏度，南风 2 级（示例
  数据，非实时）";
- an error is said once, plainly: "1 除以 0 没有结果：除数不能为零"; a call waiting for
  confirmation, or refused, is reported as not done, with the reason;
- a change is described by the arguments its result does not contradict: a field of the result with
  the same name and another value ("start": 16:30 for a 15:00 request) is said from the result,
  never the request;
- a status in the result ("status": "ok", "ok": true) says whether the call worked, never a fact
  about what the call named ("王芳正常"): after a change it is what "已…" says, with the tool's own
  words for a verb the simulator does not know ("已执行“晋升员工”"); a lookup's "ok" is dropped; a
  status it cannot read is said as one ("状态为 granted"). A tool that says it reports a status
  ("查询服务器状态") has it said as what it found.

Several questions make one sentence of clauses joined by "；". Answers are in the request's language
(Chinese or English). Statuses are read in ``results``.

Left out: summarizing long results, unit conversions, and anything the results do not say.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .actions import noun_first, tool_action
from .arguments.carry import object_names
from .choose import profile
from .expressions import number_from_result
from .facts import CallView, Fact, fact_phrase, join_words, read_data, show_number
from .fieldwords import (
    DOING_VERBS,
    STATUS_FIELDS,
    VERB_SENSES,
    VERBS,
    WORDS,
    action_words,
    field_label,
    words_of,
)
from .grounding import NUMBER_NAME
from .lexicon import RELATIVE_DAYS
from .phrasing import (
    action_phrase,
    answer_in_question,
    asks_yes_no,
    calculation_sentence,
    clean_message,
    conversion,
    conversion_sentence,
    expression_argument,
    expression_words,
    moment_sentence,
    numbers_in,
    subject_phrase,
    without_secrets,
    yes_no_sentence,
)
from .replies import (
    clarify_question,
    fallback_reply,
    people_question,
    unfinished_note,
    unmet_note,
)  # re-exported: one place to import answers from
from .results import CONFIRM, DENIED, ERROR, OK, REPEATED, ResultView, read_result
from .text import CJK_RANGE, format_number, normalize, split_identifier

MAX_FACTS = 5  # facts in one clause
LONG_TEXT = 30  # characters of a text value that is said on its own, after the other facts


@dataclass(frozen=True)
class AnswerItem:
    """One tool result to answer from, with the question (the intent's words) it was called for."""

    spec: dict[str, Any]
    arguments: dict[str, Any]
    view: ResultView
    raw: str = ""
    question: str = ""
    # a lookup made to find an id for the next step: said only when nothing else is
    background: bool = False


@dataclass(frozen=True)
class Clause:
    text: str
    caveat: str = ""  # "示例数据，非实时": said once at the end of a run of clauses that share it

    def render(self, lang: str, with_caveat: bool = True) -> str:
        if not with_caveat or not self.caveat:
            return self.text
        return f"{self.text}（{self.caveat}）" if lang == "zh" else f"{self.text} ({self.caveat})"


# ---------------------------------------------------------------------------------------------
# One result
# ---------------------------------------------------------------------------------------------


def _result_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*", value, re.I):
        return float(value)
    if isinstance(value, (str, dict)):
        return number_from_result(
            value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        )
    return None


def _caveat(caveats: list[str], lang: str) -> str:
    parts: list[str] = []
    for caveat in caveats:
        for part in re.split(r"[，,；;]\s*", caveat):
            if part and part not in parts:
                parts.append(part)
    return ("，" if lang == "zh" else ", ").join(parts)


def _topic_words(spec: dict[str, Any]) -> set[str]:
    """Words of the tool's name and their Chinese: asking for these is asking for everything the
    tool returns.
    """
    words = set(split_identifier(str(spec.get("name", ""))))
    return words | {WORDS[w][0] for w in words if w in WORDS}


def _asks(question: str, word: str) -> bool:
    if re.search(f"[{CJK_RANGE}]", word):
        return word in question
    return bool(re.search(rf"(?<![a-z]){re.escape(word.lower())}s?(?![a-z])", question.lower()))


_GENERAL = re.compile(
    r"怎么样|如何|情况|咋样|啥样|\bhow (?:is|are|was|does)\b|\bwhat(?:'s| is| are) .* like\b|\bany"
    r" (?:news|update)",
    re.I,
)
_DAY_WORDS = re.compile("|".join(word for word, _ in RELATIVE_DAYS))


def select_facts(facts: list[Fact], question: str, spec: dict[str, Any]) -> list[Fact]:
    """The facts the question asks for by name ("气温多少" → the temperature), else all of them (at
    most ``MAX_FACTS``).
    """
    if _GENERAL.search(question):
        asked = []  # "天气怎么样", "how is it": everything the tool says is wanted
    else:
        topic = _topic_words(spec)
        question = _DAY_WORDS.sub(" ", question)  # "明天气温" asks for 气温, not 天气
        asked = [f for f in facts if any(_asks(question, w) for w in f.asked - topic)]
    chosen = asked if asked else facts
    order = {"flag": 0, "text": 0, "statement": 0, "moment": 0}
    description = str(spec.get("description", "") or "")

    def mentioned(
        fact: Fact,
    ) -> (
        int
    ):  # "返回姓名、会员等级、积分…": what the tool says it returns comes first, in its order
        at = (
            description.find(fact.label)
            if fact.label and re.search(f"[{CJK_RANGE}]", fact.label)
            else -1
        )
        return at if at >= 0 else len(description) + 1

    chosen = sorted(
        chosen, key=lambda f: (order.get(f.kind, 1) if not f.label else 1, mentioned(f))
    )  # unlabelled first: "多云，温度 …"
    return chosen[:MAX_FACTS]


def _facts_sentence(subject: str, facts: list[Fact], lang: str) -> str:
    zh = lang == "zh"
    long = [f for f in facts if f.kind == "text" and f.label and len(f.value) > LONG_TEXT]
    if long and len(facts) > len(long):
        # a body of text (an email's 正文) is said after the rest, on its own: "……。正文：…"
        rest = _facts_sentence(subject, [f for f in facts if f not in long], lang)
        tail = (
            "；".join(f"{f.label}：{f.value}" for f in long)
            if zh
            else "; ".join(f"{f.label}: {f.value}" for f in long)
        )
        return f"{rest}。{tail}" if zh else f"{rest}. {tail}"
    if subject and _subject_said(subject, " ".join(f.value for f in facts)):
        subject = ""  # the facts already name it ("1 美元 = 7.2 人民币")
    if zh:
        phrases = [fact_phrase(f, lang) for f in facts]
        first = facts[0]
        if subject:
            if first.label and first.kind != "flag":
                head = join_words(join_words(subject, "的"), fact_phrase(first, lang, lead=True))
            else:
                head = join_words(subject, phrases[0])
        else:
            head = phrases[0]
        return "，".join([head] + phrases[1:])
    phrases = []
    for index, fact in enumerate(facts):
        if fact.label and index == 0:
            phrases.append(f"the {fact.label} is {fact.value}")
        else:
            phrases.append(fact_phrase(fact, lang))
    body = ", ".join(phrases)
    if subject and not facts[0].label:
        return f"{subject}: {body}"  # "Louvre today: open, hours 09:00-18:00"
    return f"for {subject}, {body}" if subject else body


def _list_sentence(subject: str, fact: Fact, lang: str, noun: str = "") -> str:
    count = fact.count or 0
    if lang == "zh":
        what = fact.label or noun or "结果"
        if subject.startswith("「"):
            subject = "关于" + subject  # a search query: 关于「向量数据库」…
        prefix = (
            join_words(join_words(subject, "的"), fact.label)
            if subject and fact.label
            else subject or fact.label
        )
        if count == 0:
            return (
                join_words(join_words("没有找到", subject), f"的{what}")
                if subject
                else f"没有找到任何{what}"
            )
        if count == 1:
            return (
                join_words(join_words(prefix, "只有 1 项，是"), fact.value)
                if prefix
                else join_words("只找到 1 项，是", fact.value)
            )
        lead = (
            join_words(prefix, f"共 {count} 项，分别是") if prefix else f"共找到 {count} 项，分别是"
        )
        return join_words(lead, fact.value)
    what = fact.label or noun or ("result" if count == 1 else "results")
    where = f" for {subject}" if subject else ""
    if count == 0:
        return f"no {what} found{where}"
    return f"{count} {what}{where} — {fact.value}"


def _subject_said(subject: str, text: str) -> bool:
    """Whether every part of the subject is already named in ``text`` (then naming it again is
    repetition).
    """
    parts = [part for part in re.split(r"兑|到| to |\s+", subject) if part]
    return bool(parts) and all(part in text for part in parts)


def _statement_sentence(subject: str, text: str, lang: str) -> str:
    if subject and _subject_said(subject, text):
        subject = ""
    short = len(text) <= 40 and not re.search(r"[。！？.!?]$|[=。；，,;]", text)
    if not short or not subject:
        return (
            text
            if not short
            else (f"结果是“{text}”" if lang == "zh" else f"the result is “{text}”")
        )
    return (
        join_words(join_words(subject, "的结果是"), f"“{text}”")
        if lang == "zh"
        else f"for {subject}, the result is “{text}”"
    )


def _ok_clause(item: AnswerItem, lang: str) -> Clause:
    expression = expression_argument(item.arguments)
    number = _result_number(item.view.value)
    if expression and number is not None:
        shown = show_number(number)
        said = numbers_in(item.question)
        if said and said <= set(re.findall(r"\d+(?:\.\d+)?", expression)):
            aimed = answer_in_question(
                item.question, shown, lang
            )  # "200 的 15% 是 30", "15% of 80 is 12"
            if aimed:
                return Clause(aimed)
        return Clause(calculation_sentence(expression, shown, lang))
    reading = read_data(
        item.view.value,
        lang,
        CallView.of(item.arguments, str(item.spec.get("name", "")), item.spec),
    )
    caveat = _caveat(reading.caveats, lang)
    tool = profile(item.spec)
    # a change is described by what the result says was done, not by what was asked for
    asked = item.arguments if tool.reads else _uncontradicted(item.arguments, item.raw)
    subject = subject_phrase(item.spec, asked, lang)
    outcome = _outcome_facts(reading.facts, item.spec)
    if outcome and tool.reads:
        # a lookup's "status": "ok" says the lookup worked, not that what it found is 正常
        worked = [f for f in outcome if _says_worked(f, lookup=True)]
        if worked and len(worked) == len(reading.facts):
            action = action_phrase(item.spec, item.arguments, lang)
            return Clause(
                f"{action}成功，没有返回其他内容"
                if lang == "zh"
                else f"{action} succeeded and returned nothing else",
                caveat,
            )
        reading.facts = [f for f in reading.facts if f not in worked]
    elif outcome and tool.action is None:
        # a status the verb does not explain is said as a status, after what was done ("状态为
        # granted"), never as a word about what the call named ("小明 granted")
        label = "状态" if lang == "zh" else "status"
        reading.facts = [
            replace(f, label=label) if f in outcome and not f.label and f.kind == "text" else f
            for f in reading.facts
        ]
    facts = select_facts(reading.facts, item.question, item.spec)
    done = _done_phrase(item, lang, outcome)
    if done:  # a tool that changes something: what was done first, then what the result adds
        facts = [f for f in facts if not _restates(f, item.arguments)]
        if not facts:
            return Clause(done, caveat)
        return Clause(
            (
                f"{done}，{_facts_sentence('', facts, lang)}"
                if lang == "zh"
                else f"{done} — {_facts_sentence('', facts, lang)}"
            ),
            caveat,
        )
    if not facts:
        action = action_phrase(item.spec, item.arguments, lang)
        return Clause(
            f"{action}没有返回任何内容" if lang == "zh" else f"{action} returned nothing", caveat
        )
    if len(facts) == 1:
        fact = facts[0]
        if (
            fact.kind == "flag"
            and fact.truth is not None
            and (isinstance(item.view.value, bool) or asks_yes_no(item.question))
        ):
            said = yes_no_sentence(item.question, fact.truth, lang, pivot=fact.asked)
            if said:
                return Clause(said, caveat)
            if isinstance(
                item.view.value, bool
            ):  # a bare true/false: say which, about what was asked
                what = action_phrase(item.spec, item.arguments, lang)
                return Clause(
                    (
                        f"{what}的结果是“{'是' if fact.truth else '否'}”"
                        if lang == "zh"
                        else f"the answer to {what} is {'yes' if fact.truth else 'no'}"
                    ),
                    caveat,
                )
        if fact.kind == "moment" and fact.moment:
            return Clause(moment_sentence(fact.moment, item.question, subject, lang), caveat)
        if fact.kind == "list":
            member = _membership(item, fact, lang)
            if member:
                return Clause(member, caveat)
            return Clause(
                _list_sentence(subject, fact, lang, _action_words(item.spec, lang)[1]), caveat
            )
        if fact.kind == "number" and len(fact.numbers) == 1:
            aimed = answer_in_question(item.question, fact.value, lang)
            if aimed:
                return Clause(aimed, caveat)
            pair = conversion(item.spec, item.arguments, lang)
            amount = next(
                (
                    v
                    for v in item.arguments.values()
                    if isinstance(v, (int, float)) and not isinstance(v, bool)
                ),
                None,
            )
            if (
                pair and amount is not None
            ):  # "把 250 USD 换成 CNY": the amount converted, in the reader's words
                return Clause(
                    conversion_sentence(show_number(amount), pair, fact.value, lang), caveat
                )
            if not fact.label:
                lead = join_words(subject, "的结果是") if subject else "结果是"
                return Clause(
                    (
                        join_words(lead, fact.value)
                        if lang == "zh"
                        else (
                            f"for {subject}, the result is {fact.value}"
                            if subject
                            else f"the result is {fact.value}"
                        )
                    ),
                    caveat,
                )
        if fact.kind == "statement":
            return Clause(_statement_sentence(subject, fact.value, lang), caveat)
    return Clause(_facts_sentence(subject, facts, lang), caveat)


def _restates(fact: Fact, arguments: dict[str, Any]) -> bool:
    """A fact that says again what "已发送…" said: a success flag or status, or a count of what was
    done that is the number of targets the call named ("sent": 2 after sending to two customers)."""
    words = set(fact.field.lower().split("_"))
    if fact.kind == "flag" and fact.truth and words & _SUCCESS_WORDS:
        return True
    if fact.status and fact.status.replace(" ", "_") in _SUCCESS_WORDS:
        return True
    if fact.kind == "number" and words & _SUCCESS_WORDS and len(fact.numbers) == 1:
        named = [len(v) for v in arguments.values() if isinstance(v, list)]
        return bool(named) and fact.numbers[0] == str(named[0])
    return False


_NAMED = re.compile(
    r"(?<![A-Za-z0-9_@.\-])(?=[A-Za-z0-9_\-]*\d)(?=[A-Za-z0-9_\-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_\-"
    r"]*(?![A-Za-z0-9_@.])"
)


def _listed_objects(value: Any, depth: int = 0) -> list[dict[str, Any]]:
    """The objects of the lists inside a result (a list of rooms, of orders …)."""
    if depth > 4:
        return []
    if isinstance(value, list):
        found = [item for item in value if isinstance(item, dict)]
        return found + [
            o
            for item in value
            if isinstance(item, (list, dict))
            for o in _listed_objects(item, depth + 1)
            if o not in found
        ]
    if isinstance(value, dict):
        return [o for inner in value.values() for o in _listed_objects(inner, depth + 1)]
    return []


_TAKEN = re.compile(
    r"被占|占用|占了|有人用|订满|满了|已被预订|\b(?:taken|occupied|busy|booked)\b", re.I
)


def _membership(item: AnswerItem, fact: Fact, lang: str) -> str:
    """ "A302 明天下午 3 点到 4 点有空吗？" answered from a list of what is free: yes when the named
    thing is in it, no when it is not — about the thing asked, not a recital of the list ("" when
    the question names nothing or asks no yes/no).
    """
    if not asks_yes_no(item.question):
        return ""
    question = normalize(item.question)
    objects = _listed_objects(item.view.value)
    names = [n for n in _NAMED.findall(question) if not re.fullmatch(r"\d+[A-Za-z]{1,2}", n)]
    names += [m.group(0) for m in NUMBER_NAME.finditer(question)]  # "301 有空吗"
    if not names:  # a Chinese name, when one listed object has it ("春晖厅有空吗")
        values = [
            normalize(str(v).strip())
            for o in objects
            for v in o.values()
            if isinstance(v, str) and len(v.strip()) >= 2
        ]
        names = [
            v
            for v in dict.fromkeys(values)
            if values.count(v) == 1 and not v.isdigit() and v in question
        ]
    if not names or not objects:
        return ""
    wanted = {n.lower() for n in names}
    present = [o for o in objects if wanted & object_names(o)]
    if _TAKEN.search(
        item.question
    ):  # "B501 被占了吗？" asks the opposite of what a list of free things says
        shown = "、".join(names)
        if lang == "zh":
            return (
                f"不，{shown} 没有被占用，是空闲的"
                if present
                else f"是的，{shown} 已被占用（不在空闲的里面）"
            )
        return (
            f"No, {shown} is free"
            if present
            else f"Yes, {shown} is taken (it is not among the free ones)"
        )
    said = yes_no_sentence(item.question, bool(present), lang)
    if not said:  # a question the sentence rules cannot turn around: say it plainly
        shown = "、".join(names) if lang == "zh" else " and ".join(names)
        what = fact.label or ("查到的结果" if lang == "zh" else "results")
        said = (
            f"{'是的' if present else '不'}，{shown}{'在' if present else '不在'}{what}里"
            if lang == "zh"
            else (
                f"{'Yes' if present else 'No'}, {shown} {'is' if present else 'is not'} among the"
                f" {what}"
            )
        )
    if present:
        details = read_data(
            {k: v for k, v in present[0].items() if str(v).strip().lower() not in wanted},
            lang,
            CallView.of(item.arguments, str(item.spec.get("name", "")), item.spec),
        ).facts[:3]
        extra = ("，" if lang == "zh" else ", ").join(
            fact_phrase(f, lang, compact=True) for f in details
        )
        return (
            f"{said}（{extra}）"
            if extra and lang == "zh"
            else (f"{said} ({extra})" if extra else said)
        )
    others = fact.value if fact.count else ""
    if lang == "zh":
        return f"{said}" + (f"；{fact.label or '查到的'}有 {others}" if others else "")
    return said + (f"; the {fact.label or 'results'} are {others}" if others else "")


_SUCCESS_WORDS = {
    "sent",
    "success",
    "ok",
    "done",
    "completed",
    "created",
    "booked",
    "saved",
    "updated",
    "deleted",
    "cancelled",
    "succeeded",
    "delivered",
    "submitted",
    "scheduled",
    "successful",
    "complete",
    "finished",
    "accepted",
    "received",
    "reserved",
    "confirmed",
    "canceled",
}


def _action_words(spec: dict[str, Any], lang: str) -> tuple[str, str]:
    return action_words(str(spec.get("name", "")), lang, str(spec.get("description", "") or ""))


def show_value(value: Any) -> str:
    """An argument's value as said in an answer (15.0 → 15)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# what was done, by the kind of action, when the tool's own words give no verb
_FAMILY_VERBS = {
    "create": ("创建", "created"),
    "update": ("更新", "updated"),
    "delete": ("删除", "deleted"),
    "send": ("发送", "sent"),
    "pay": ("支付", "paid"),
    "export": ("导出", "exported"),
}


def _done_verb(description: str, action: str, lang: str) -> str:
    """The verb of what a tool did: its English description's first word (Cancel → 取消), a short
    Chinese label before a colon that names the action ("登记收费：…" → 登记收费), else the
    family's verb (send → 发送)."""
    plain = description.strip()
    first = re.match(r"[A-Za-z]+", plain)
    if first and first.group(0).lower() in VERBS:
        zh, en = VERBS[first.group(0).lower()]
        return zh if lang == "zh" else en
    label = re.match(rf"([{CJK_RANGE}]{{2,4}})[：:]", plain)
    if lang == "zh" and label and tool_action("", label.group(1)) == action:
        return label.group(1)
    parts = re.split(r"或者|或|/|\bor\b", re.split(r"[，,。;；]", plain)[0])
    if len({tool_action("", part) for part in parts} - {None}) > 1:
        return "办理" if lang == "zh" else "done"  # "预约或取消会议": the arguments say which
    zh, en = _FAMILY_VERBS.get(action, ("完成", "done"))
    return zh if lang == "zh" else en


def _done_phrase(item: AnswerItem, lang: str, outcome: Sequence[Fact] = ()) -> str:
    """For a tool whose name says it changes something (send, book, create …): "已预订会议室（…）" /
    "Done — book meeting room for …". ``outcome``: the result's facts that say whether the call
    worked (``_outcome_facts``).
    """
    words = split_identifier(str(item.spec.get("name", "")))
    said = without_secrets(item.spec, _uncontradicted(item.arguments, item.raw))
    verb, obj = _action_words(item.spec, lang)
    named_verb = words and words[0] in DOING_VERBS
    named_verb = named_verb and not noun_first(
        item.spec.get("name", ""), item.spec.get("description", "") or ""
    )
    if not named_verb or lang == "zh" and not obj:
        # a change the name does not say in known words (cancel_visit, a pinyin name): the
        # description says what was done, the result that it succeeded — never "正常" for "ok"
        tool = profile(item.spec)
        if tool.reads or tool.action is None and not outcome:
            return ""  # a lookup or a calculation: its result is the answer
        values = "，" if lang == "zh" else ", "
        subject = values.join(
            f"{_said_label(item.spec, name, lang)} {show_value(value)}"
            for name, value in said.items()
            if isinstance(value, (str, int, float)) and not isinstance(value, bool)
        )
        if tool.action is None:
            # a verb the simulator does not know ("晋升员工", "Archive a ticket") with a status in
            # its result: the tool's own words say what it did, the status whether it worked
            return _unknown_done(item.spec, subject, all(_says_worked(f) for f in outcome), lang)
        what = _done_verb(str(item.spec.get("description", "") or ""), tool.action, lang)
        if words[0] in VERB_SENSES and verb:
            what = verb  # "transfer_staff": the sense its words call for (调动), not 支付
        if lang == "zh":
            return f"已{what}" + (f"（{subject}）" if subject else "")
        return f"Done — {what}" + (f" ({subject})" if subject else "")
    if lang == "zh":
        subject = subject_phrase(item.spec, said, lang, with_text=False)
        return f"已{join_words(verb, obj)}" + (f"（{subject}）" if subject else "")
    return f"Done — {action_phrase(item.spec, said, lang)}"


# status words that can only say the call worked, whatever the tool looked up …
_CALL_OK = {"ok", "success", "succeeded", "successful"}
# … and, after a change, these too ("完成" of a change is the change done)
_CHANGE_OK = _CALL_OK | {"成功", "正常", "完成", "已完成", "好了"}
# a tool that says it reports a status: then "status" is what it found out, not the call's outcome
_REPORTS_STATUS = re.compile(
    r"\b(?:status|state|states|health|progress)\b|状态|健康|进度|运行情况|是否正常", re.I
)
_STATUS_VALUE = re.compile(rf"[A-Za-z][A-Za-z_\- ]{{0,23}}|[{CJK_RANGE}]{{1,6}}")


def _outcome_facts(facts: list[Fact], spec: dict[str, Any]) -> list[Fact]:
    """The facts of a result that say whether the call worked: a status field holding a status
    word ("status": "ok", "result": "success", "state": "queued") or a success flag ("ok": true) —
    none when the tool says it reports a status ("查询服务器状态": there "ok" is what it found).
    """
    name = " ".join(split_identifier(str(spec.get("name", ""))))
    if _REPORTS_STATUS.search(f"{name} {spec.get('description', '') or ''}"):
        return []
    found = []
    for fact in facts:
        words = set(words_of(fact.field))
        if fact.kind == "flag" and fact.truth is not None and words & _SUCCESS_WORDS:
            found.append(fact)
        elif (
            fact.kind == "text"
            and words & STATUS_FIELDS
            and (fact.status or _STATUS_VALUE.fullmatch(fact.value))
        ):
            found.append(fact)
    return found


def _says_worked(fact: Fact, lookup: bool = False) -> bool:
    """Whether a status fact says only that the call worked ("ok", "done", "ok": true). For a
    lookup only the words that can mean nothing else count: a task's "completed" is found out.
    """
    if fact.kind == "flag":
        return bool(fact.truth)
    value = (fact.status or fact.value).strip().lower()
    if lookup:
        return value in _CALL_OK
    return value in _CHANGE_OK or value.replace(" ", "_") in _SUCCESS_WORDS


_DESCRIPTION_LEAD = re.compile(
    r"^(?:(?:本|该|此|这个)?(?:工具|接口|函数)\s*[：:，,]?\s*)?(?:用于|用来|可以|可|能够|负责)?"
)


def _described_action(spec: dict[str, Any], lang: str) -> str:
    """What a tool does in its own words, to say it was done: the first clause of its description
    in the answer's language ("“晋升员工”", "archive a support ticket"), else its name.
    """
    name = str(spec.get("name", "") or "tool")
    description = normalize(str(spec.get("description", "") or "")).strip()
    first = re.split(r"[，,。；;：:（(\n]|\.(?:\s|$)", description)[0].strip()
    if lang == "zh":
        first = _DESCRIPTION_LEAD.sub("", first).strip()
        if re.search(f"[{CJK_RANGE}]", first) and 2 <= len(first) <= 16:
            return f"“{first}”"
        return f" {name} "
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9'\- ]*", first) and len(first.split()) <= 8:
        return first[:1].lower() + first[1:]
    return name


def _unknown_done(spec: dict[str, Any], subject: str, worked: bool, lang: str) -> str:
    """A call of a tool whose verb the simulator does not know, said with the tool's own words:
    "已执行“晋升员工”（员工姓名 王芳）" when its status says it worked, else "已调用 … " with the
    status said after it.
    """
    what = _described_action(spec, lang)
    if lang == "zh":
        head = ("已执行" if worked else "已调用") + what
        return head.strip() + (f"（{subject}）" if subject else "")
    head = f"Done — {what}" if worked else f"Called {what}"
    return head + (f" ({subject})" if subject else "")


def _said_label(spec: dict[str, Any], name: str, lang: str) -> str:
    """How an argument is named back to the user: in Chinese, the head of the parameter's own
    Chinese description ("收件人姓名" of "收件人姓名（例如 张三）"); else the name as a reader
    says it.
    """
    if lang == "zh":
        properties = (spec.get("parameters") or {}).get("properties") or {}
        described = str((properties.get(name) or {}).get("description") or "")
        head = re.match(rf"[{CJK_RANGE}]{{2,8}}(?=[，,。；;（(：:\s]|$)", described)
        if head:
            return head.group(0)
    return field_label(name, lang) or name


def _result_fields(value: Any, out: dict[str, list[Any]], depth: int = 0) -> None:
    if depth > 4:
        return
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(inner, (dict, list)):
                _result_fields(inner, out, depth + 1)
            else:
                out.setdefault(str(key).lower(), []).append(inner)
    elif isinstance(value, list):
        for inner in value[:20]:
            _result_fields(inner, out, depth + 1)


def _same_value(a: Any, b: Any) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return normalize(str(a)).strip().lower() == normalize(str(b)).strip().lower()


def _uncontradicted(arguments: dict[str, Any], raw: str) -> dict[str, Any]:
    """The arguments the result does not contradict: a field of the same name with another value
    ("start": 16:00 for a 15:00 request) is the result's to say, never the request's."""
    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        return arguments
    fields: dict[str, list[Any]] = {}
    _result_fields(data, fields)
    return {
        k: v
        for k, v in arguments.items()
        if not any(not _same_value(v, got) for got in fields.get(k.lower(), []))
    }


def _message(view: ResultView, lang: str, mentions: list[str]) -> str:
    text = (view.message or "").strip()
    if not text or text.startswith(("{", "[")):
        return ""  # a structure, not words: say what happened without dumping it
    return clean_message(text, lang, mentions)


def _problem_clause(item: AnswerItem, lang: str) -> Clause:
    zh = lang == "zh"
    expression = expression_argument(item.arguments)
    mentions = [expression or ""] + [str(v) for v in item.arguments.values() if isinstance(v, str)]
    action = action_phrase(item.spec, item.arguments, lang)
    status = item.view.status
    if status == ERROR:
        message = _message(item.view, lang, mentions)
        if expression:
            words = expression_words(expression, lang)
            head = join_words(words, "没有结果") if zh else f"{words} has no result"
        else:
            head = f"{action}没有成功" if zh else f"could not {action}"
        return Clause(f"{head}{'：' if zh else ': '}{message}" if message else head)
    if status == CONFIRM:
        message = re.sub(
            r"[，,。.；;\s]*(?:请(?:你|您)?(?:先)?确认(?:一下)?|please confirm)[。.!！]*$",
            "",
            _message(item.view, lang, []),
            flags=re.I,
        )
        if zh:
            return Clause(f"{action}还没有执行，需要你确认" + (f"：{message}" if message else ""))
        return Clause(
            f"{action} has not been done yet: it needs your confirmation"
            + (f" ({message})" if message else "")
        )
    if status == DENIED:
        message = _message(item.view, lang, [])
        return Clause(
            f"{action}没有执行" + (f"：{message}" if message else "")
            if zh
            else f"{action} was not carried out" + (f": {message}" if message else "")
        )
    return Clause(
        f"{action}已经调用过，结果见上文"
        if zh
        else f"{action} was already called; its result is above"
    )


def answer_clause(item: AnswerItem, lang: str) -> Clause:
    """The clause for one result, in the answer's language."""
    if item.view.status == OK or (item.view.status == REPEATED and item.view.value is not None):
        return _ok_clause(
            AnswerItem(
                item.spec, item.arguments, ResultView(OK, item.view.value), item.raw, item.question
            ),
            lang,
        )
    return _problem_clause(item, lang)


# ---------------------------------------------------------------------------------------------
# Several results
# ---------------------------------------------------------------------------------------------


def _source_of(index: int, items: list[AnswerItem], expression: str) -> int | None:
    """The earlier result whose number a calculation uses (a number in the expression the question
    never said).
    """
    used = set(re.findall(r"\d+(?:\.\d+)?", expression))
    said = numbers_in(items[index].question)
    for earlier in range(index - 1, -1, -1):
        item = items[earlier]
        if item.view.status != OK:
            continue
        number = _result_number(item.view.value)
        if number is None:
            number = number_from_result(item.raw)
        if (
            number is not None
            and format_number(number) in used
            and format_number(number) not in said
        ):
            return earlier
    return None


def _dependent_clause(
    source: AnswerItem, item: AnswerItem, expression: str, number: float, lang: str
) -> Clause:
    """A calculation on an earlier result, said together with what it rests on."""
    zh = lang == "zh"
    shown = show_number(number)
    source_expression = expression_argument(source.arguments)
    previous = _result_number(source.view.value)
    if source_expression and previous is not None:
        first = calculation_sentence(source_expression, show_number(previous), lang)
        rest = re.fullmatch(
            rf"\s*{re.escape(format_number(previous))}\s*([-+*/])\s*(-?\d+(?:\.\d+)?)\s*",
            expression,
        )
        if rest:
            step = expression_words(f"1 {rest[1]} {rest[2]}", lang)[2:]  # "乘以 2" / "times 2"
            return Clause(
                f"{first}，再{step} 等于 {shown}" if zh else f"{first}, and {step} that is {shown}"
            )
        return Clause(
            f"{first}，{calculation_sentence(expression, shown, lang)}"
            if zh
            else f"{first}, and {calculation_sentence(expression, shown, lang)}"
        )
    basis = answer_clause(
        AnswerItem(source.spec, source.arguments, source.view, source.raw, ""), lang
    ).render(lang)
    pair = conversion(source.spec, source.arguments, lang)
    said = [n for n in re.findall(r"-?\d+(?:\.\d+)?", expression) if n in numbers_in(item.question)]
    converted = conversion_sentence(said[0], pair, shown, lang) if pair and len(said) == 1 else None
    aimed = (
        answer_in_question(item.question, shown, lang)
        or converted
        or calculation_sentence(expression, shown, lang)
    )
    if zh:
        return Clause(f"{join_words('按', basis)}，{aimed}")
    return Clause(
        f"{basis}, so"
        f" {aimed[:1].lower() + aimed[1:] if aimed.startswith(('The ', 'There ')) else aimed}"
    )


def compose_answer(items: list[AnswerItem], notes: list[str], lang: str) -> str:
    """The final answer: one clause per result (a calculation joined to the result it rests on),
    then notes. A lookup made only to find an id (``background``) is not recited when the step it
    served is reported.
    """
    zh = lang == "zh"
    if any(not item.background for item in items):
        items = [item for item in items if not item.background]
    clauses: list[Clause | None] = [None] * len(items)
    absorbed: set[int] = set()
    for index, item in enumerate(items):
        expression = expression_argument(item.arguments)
        number = _result_number(item.view.value) if item.view.status == OK else None
        if expression and number is not None:
            source = _source_of(index, items, expression)
            if source is not None:
                clauses[index] = _dependent_clause(items[source], item, expression, number, lang)
                absorbed.add(source)
                continue
        clauses[index] = answer_clause(item, lang)
    kept: list[Clause] = []
    for index, clause in enumerate(clauses):
        if (
            clause is not None
            and index not in absorbed
            and clause.render(lang) not in [c.render(lang) for c in kept]
        ):
            kept.append(clause)
    texts = []
    for index, clause in enumerate(
        kept
    ):  # a caveat shared by a run of clauses is said once, at the end of the run
        shared = index + 1 < len(kept) and kept[index + 1].caveat == clause.caveat
        texts.append(clause.render(lang, with_caveat=not shared))
    body = ("；" if zh else "; ").join(texts)
    if zh:
        body = re.sub(r"(\d) ?人民币", r"\1 元人民币", body)  # an amount of yuan: "7.2 元人民币"
    if body:
        body = body[:1].upper() + body[1:] if not zh else body
        body = (
            body
            if body.endswith(("。", ".", "？", "?", "！", "!"))
            else body + ("。" if zh else ".")
        )
    parts = [body] if body else []
    parts += [_finish(note, lang) for note in notes]
    return "\n".join(parts).strip()


def _finish(line: str, lang: str) -> str:
    return (
        line
        if line.endswith(("。", ".", "？", "?", "！", "!"))
        else line + ("。" if lang == "zh" else ".")
    )


def result_line(
    spec: dict[str, Any], arguments: dict[str, Any], view: ResultView, lang: str, question: str = ""
) -> str:
    """One clause about one result (see ``answer_clause``)."""
    return answer_clause(AnswerItem(spec, arguments, view, "", question), lang).render(lang)


def compose_final(lines: list[str], notes: list[str], lang: str) -> str:
    """Clauses already written, joined into one answer, then the notes."""
    lines = list(dict.fromkeys(line for line in lines if line))
    body = ("；" if lang == "zh" else "; ").join(lines)
    parts = [_finish(body, lang)] if body else []
    return "\n".join(parts + [_finish(note, lang) for note in notes]).strip()


__all__ = [
    "OK",
    "ERROR",
    "CONFIRM",
    "DENIED",
    "REPEATED",
    "ResultView",
    "read_result",
    "AnswerItem",
    "Clause",
    "answer_clause",
    "compose_answer",
    "result_line",
    "compose_final",
    "select_facts",
    "clarify_question",
    "unfinished_note",
    "unmet_note",
    "people_question",
    "fallback_reply",
]
