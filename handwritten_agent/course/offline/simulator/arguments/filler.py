"""Filling one tool's arguments from one request: the rules of the other modules, applied in order.

Left out: anything the request, the intent's context and the earlier results of this turn do not
say.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from .. import people
from ..actions import READ, ordered_verb, reading_verb, request_actions
from ..concepts import concepts_of, enum_family
from ..dates import (
    ambiguous_times,
    default_hour,
    find_dates,
    find_duration,
    find_parts,
    find_times,
    morning_by_default,
    vague_day,
)
from ..expressions import PREV, extract_expression
from ..fieldwords import VERBS, description_noun
from ..lexicon import CURRENCIES, SURNAMES
from ..text import (
    CJK_RANGE,
    find_numbers,
    find_quotes,
    format_number,
    normalize,
    split_identifier,
    tokens,
)
from ..vocabulary import expand, members
from . import bare, fields
from .carry import NONE_FIT, value_from_results
from .entities import (
    CLASSIFIERS,
    MEASURE_UNITS,
    Span,
    coordinated,
    excluded,
    expand_ranges,
    find_cities,
    find_currencies,
    find_enum,
    find_pattern,
    find_people,
    find_things,
)
from .freetext import (
    CONTENT_WORDS,
    SEARCH_WORDS,
    free_text,
    labelled_for,
    leftover_clauses,
    one_word,
    quotes_for,
    without_own_words,
)
from .numbers import bare_yes_no, boolean_value, pick_number, yes_no_enum
from .params import (
    AMOUNT_WORDS,
    CONDITIONAL_WORDS,
    DEPENDENT_WORDS,
    PERSON_NOUNS_ZH,
    FillContext,
    FillOutcome,
    Param,
    all_patterns,
    classify,
    examples_of,
    first_example,
    is_clock_hour,
    params_of,
    patterns_of,
    wants_upper,
)
from .roles import NEITHER, assign_roles, mention_role, role_of
from .when import date_format

PERSON_NOUNS = re.compile(PERSON_NOUNS_ZH)
# where a clause ends: a comma, except inside Latin words ("123 Main St, Anytown" is one address)
CLAUSE_BREAK = re.compile(r"[，。；;]|(?<![A-Za-z]),|,(?! [A-Z])")
# what goes on with a value in Latin words after a comma ("12 King St" + ", Toronto")
_LATIN_TAIL = re.compile(
    r"(?:, [A-Z][A-Za-z0-9_.\-]*(?: [A-Za-z0-9][A-Za-z0-9_.\-]*)*)+(?=[，,。；;]|\s*$)"
)
# "一只名为小花的狗": the name the request gives, then the noun of its kind after 的
_NAMED_KIND = re.compile(
    rf"(?:名为|名叫|叫做|叫)\s*([{CJK_RANGE}]{{1,4}}?|[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)?)"
    rf"\s*的\s*([{CJK_RANGE}]{{1,4}})(?=[，,。；;！!？?]|$)"
)
# a parameter of a kind of thing ("宠物种类", "品种", "species")
_KIND_WORDS = re.compile(r"种类|类型|品种|类别|\bspecies\b|\bbreed\b|\btype\b|\bkind\b", re.I)
SURNAME_CHARS = "".join(sorted({name[0] for name in SURNAMES if len(name) == 1}))


def blank(text: str, spans: list[Span]) -> str:
    chars = list(text)
    for start, stop in spans:
        for index in range(max(0, start), min(len(chars), stop)):
            chars[index] = " "
    return "".join(chars)


# the kinds of parameter a value set in place of a field's may fill ("负责人改为陈晨")
_SET_KINDS = ("person", "literal", "unknown")


# "一门", "一个新的": an article and "new" after the order's verb, no part of a name
_ARTICLE = re.compile(
    r"^\s*(?:一下|下)?\s*(?:[一这][门个本件位张份项条间家辆只所场节]\s*)?(?:新的?)?\s*"
)


class _Filler:
    """Fills one tool's arguments from one ``FillContext``; one method per kind of parameter."""

    def __init__(self, spec: dict[str, Any], ctx: FillContext):
        self.ctx = ctx
        self.spec = spec
        self.params = params_of(spec)
        self.kinds = {p.name: classify(p) for p in self.params}
        self.segment = normalize(ctx.segment)
        self.context = normalize(ctx.context)
        # Where to look, nearest first: the intent's words, the request minus other intents, the
        # whole request, then earlier results (only for ids and names).
        self.sources = [self.segment, self.context, normalize(ctx.request)] + [
            normalize(t) for t in ctx.previous_texts
        ]
        self.english = not re.search(f"[{CJK_RANGE}]", self.segment + self.context)
        self.values: dict[str, Any] = {}
        self.quoted: dict[str, str] = {}  # free-text parameter -> the quote it takes
        self.labelled: dict[
            str, str
        ] = {}  # free-text parameter -> the words after its label ("主题：…")
        self.labelled_spans: list[Span] = []  # where those labels and words are in the segment
        self.paired: set[str] = set()  # parameters filled by role: one left empty stays empty
        self.label_said: set[str] = set()  # parameters of no known kind their label filled
        self.used_spans: list[
            Span
        ] = []  # parts of the segment already taken (ids, dates …): numbers skip them
        self.fanout: tuple[str, list[Any]] | None = None
        self.fanout_words: list[str] = []  # how the fanned values are written, when not as values
        self.needs_previous = False
        self.waiting: list[Param] = []  # required parameters left for an earlier result
        self.dependent: set[str] = set()  # parameters whose own rule builds on the earlier result
        self.unmet: list[Param] = []  # "有的话…" and the earlier results hold no value that fits
        self.context_own: list[
            Span
        ] = []  # counts of the tool's own object in the context ("一个采购申请")
        self.quotes()

    def take(self, found_by_source: list[list[tuple[Any, Span]]]) -> list[Any]:
        """The values of the first source that has any (spans in the segment are marked as used)."""
        for index, found in enumerate(found_by_source):
            if found:
                if index == 0:
                    self.used_spans.extend(span for _, span in found)
                return [value for value, _ in found]
        return []

    def of_kind(self, *kinds: str) -> list[Param]:
        return [
            p
            for p in self.params
            if self.kinds[p.name] in kinds
            and p.name not in self.values
            and p.name not in self.paired
        ]

    def fill(self) -> FillOutcome:
        self.pairs()
        self.field_value()
        self.set_fields()
        self.currencies()
        self.datetimes()
        self.name_parts()
        self.named_kind()
        for param in self.of_kind("enum", "pattern", "city", "person", "literal"):
            if self.kinds[param.name] == "enum" and yes_no_enum(param):
                self.yes_no(param)
            else:
                self.entity(param)
        self.english_names()
        self.bare()
        self.things()
        # a time of day is no count ("晚上7点，4个人"): an hour parameter reads it, nothing else;
        clock = [span for _, span in find_times(self.segment)]
        # a number word inside a value another parameter took ("张三" → 3) counts nothing
        clock += [
            m.span()
            for value in self.values.values()
            if isinstance(value, str) and len(value) >= 2
            for m in re.finditer(re.escape(value), self.segment)
        ]
        numbers = find_numbers(blank(self.segment, self.used_spans + clock))
        taken: set[int] = set()
        for param in self.of_kind("expression", "number", "boolean", "text", "array"):
            kind = self.kinds[param.name]
            if kind == "expression":
                value = self.expression()
                if value is None and self.needs_previous:
                    self.dependent.add(
                        param.name
                    )  # its expression uses the earlier result: a step of its own
            elif kind == "number" and is_clock_hour(param):
                value = self.clock_hour(param)
            elif kind == "number":
                # a number with the parameter's unit in the intent's words, else one with the unit
                # elsewhere in the request ("…的客房，3 个人"), and only then any number the
                # intent's words hold
                value = pick_number(
                    param, blank(self.segment, self.used_spans), numbers, taken, unit_only=True
                )
                if value is None and param.required:
                    value = self.number_nearby(param)
                if value is None:
                    value = pick_number(param, blank(self.segment, self.used_spans), numbers, taken)
                if value is None:
                    value = self.labelled_number(param)  # "年龄为30" in a clause of its own
            elif kind == "boolean":
                value = boolean_value(param, self.sources[:3])
            elif kind == "text":
                value = self.text(param)
            else:
                value = self.array(param)
            if value is not None:
                self.values[param.name] = value
        self.unbind()
        self.latin_tails()
        missing = self.settle()
        ordered = {p.name: self.values[p.name] for p in self.params if p.name in self.values}
        arguments = [ordered]
        if self.fanout:
            name, options = self.fanout
            parts = own_clauses(
                self.segment, self.ctx.context, self.fanout_words or [str(o) for o in options]
            )
            if parts:
                # "AP2031 疫苗费 120；AP2045 驱虫费 60": each call's values from its own clause
                outcomes = [
                    _Filler(self.spec, replace(self.ctx, segment=segment, context=context)).fill()
                    for segment, context in parts
                ]
                return FillOutcome(
                    arguments=[{**o.arguments[0], name: v} for o, v in zip(outcomes, options)],
                    missing=list({p.name: p for o in outcomes for p in o.missing}.values()),
                    needs_previous=any(o.needs_previous for o in outcomes),
                    waiting=list({p.name: p for o in outcomes for p in o.waiting}.values()),
                    unmet=list({p.name: p for o in outcomes for p in o.unmet}.values()),
                )
            arguments = [{**ordered, name: option} for option in options]
        return FillOutcome(
            arguments=arguments,
            missing=missing,
            needs_previous=self.needs_previous,
            waiting=self.waiting,
            unmet=self.unmet,
        )

    def settle(self) -> list[Param]:
        """The parameters the request did not fill: a default, a wait for an earlier result, or
        missing.

        This is the one place that decides what happens to a value the words did not give — the
        place for any further source (the arguments of an earlier call in the conversation, say)
        before a parameter is reported missing and the planner asks the user.
        """
        missing: list[Param] = []
        for param in self.params:
            if (
                param.name not in self.values
                and self.kinds[param.name] == "pattern"
                and self.ctx.previous_texts
            ):
                self.carry(param)
        self.from_seen()
        for param in self.params:
            if param.name in self.values:
                continue
            if param.has_default:
                self.values[param.name] = param.schema["default"]
            elif param.required:
                if (
                    self.ctx.has_previous
                    and self.ctx.previous_ready
                    and self.kinds[param.name] == "pattern"
                    and (CONDITIONAL_WORDS.search(self.segment) or self.ctx.grounded)
                ):
                    self.unmet.append(
                        param
                    )  # "有的话…": the earlier result has none, so the step is not taken
                elif self.ctx.has_previous and not self.ctx.previous_ready:
                    self.needs_previous = True  # an earlier result may still provide it
                    if param.name not in self.dependent:
                        self.waiting.append(param)
                else:
                    missing.append(param)
        return missing

    def from_seen(self) -> None:
        """An id the user names by a display name found in the results of an earlier round ("明天下
        午有哪些会议室空着？" … "那就订 B502"): taken from the object that carries the name, and the
        arguments this call still lacks come from the call that found it (the same time slot), when
        it had arguments of the same name."""
        if not self.ctx.seen_calls or not self.ctx.named:
            return
        numbers = [
            (p, self.values[p.name])
            for p in self.params
            if p.name in self.values and self.kinds[p.name] == "number"
        ]
        for param in self.params:
            if param.name in self.values or self.kinds[param.name] != "pattern":
                continue
            for spec, arguments, raw in reversed(self.ctx.seen_calls):
                found = value_from_results(
                    param,
                    patterns_of(param),
                    [(spec, arguments, raw)],
                    numbers,
                    self.ctx.named,
                    named_must_fit=self.ctx.named_in_lookup,
                )
                if found is None or found is NONE_FIT:
                    continue
                self.values[param.name] = found.upper() if wants_upper(param) else found
                for other in self.params:
                    if other.name not in self.values and other.required and other.name in arguments:
                        self.values[other.name] = arguments[other.name]
                break

    def carry(self, param: Param) -> None:
        """An id from an earlier result (``carry``): the first object that fits the constraints,
        else — when the results hold no objects to read — the first match in their text."""
        upper = wants_upper(param)
        if not self.ctx.named and people.unnamed(self.ctx.request, self.ctx.previous_calls):
            return  # a person the user did not name is not chosen for them: asked which one
        numbers = [
            (p, self.values[p.name])
            for p in self.params
            if p.name in self.values and self.kinds[p.name] == "number"
        ]
        carried = value_from_results(
            param,
            patterns_of(param),
            list(self.ctx.previous_calls),
            numbers,
            self.ctx.named,
            named_must_fit=self.ctx.named_in_lookup,
        )
        if carried is NONE_FIT:
            return
        if carried is not None:
            self.values[param.name] = carried.upper() if upper else carried
            return
        if self.ctx.named:
            # the user named the thing: an id that happens to be in the text may be another one
            return
        for regex in patterns_of(param):
            found = [
                value
                for source in self.sources[3:]
                for value, _ in find_pattern(regex, source, upper)
            ]
            if found:
                self.values[param.name] = found[0]
                return

    def own_words(self) -> frozenset[str]:
        """The words for what the tool itself deals in — its name's words and the noun its
        description puts after its verb ("按商品关键词搜索订单" → 订单; "提交采购申请并…" → 采购申
        请): what it makes or returns, not a thing it is given.
        """
        words = split_identifier(str(self.spec.get("name", "")))
        verb = VERBS.get(words[0], ("",))[0] if words else ""
        noun = description_noun(str(self.spec.get("description", "") or ""), verb)
        return frozenset(tokens(" ".join(words))) | frozenset(tokens(noun))

    def things(self) -> None:
        """A thing to buy or hand over ("买 5 把人体工学椅" → 人体工学椅): a quote or label for it,
        the description's own example when the request names it, else the words counted by a
        quantity. A count of the tool's own object ("提交一个采购申请") is no quantity: its span is
        taken away from the numbers."""
        params = self.of_kind("thing")
        if not any(self.kinds[p.name] == "number" for p in self.params) and not params:
            return
        found, own_counts = find_things(self.segment, self.own_words())
        self.used_spans.extend(own_counts)
        self.context_own = find_things(self.context, self.own_words())[1]
        if not found and any(AMOUNT_WORDS.search(p.words) for p in self.params):
            # "检查费 150，药费 80": things named by what they cost, to a tool that takes an amount
            found = priced_things(self.segment)
            said = [value for value, _ in found]
            if (
                params
                and len(set(said)) == len(said) > 1
                and self.fanout is None
                and own_clauses(self.segment, self.ctx.context, said)
            ):
                self.fanout = (params[0].name, said)
                self.fanout_words = said
        for param in params:
            if param.name in self.label_said:
                continue  # "课程名为计算机科学": the label said it
            if param.name in self.quoted or param.name in self.labelled:
                self.values[param.name] = self.quoted.get(param.name) or self.labelled[param.name]
                continue
            literal = [
                (e, (self.segment.find(e), self.segment.find(e) + len(e)))
                for e in examples_of(param)
                if e in self.segment
            ]
            pool = literal or found or find_things(self.context, self.own_words())[0]
            if pool:
                value, span = pool[0]
                self.values[param.name] = value
                if literal or found:
                    self.used_spans.append(span)

    def quotes(self) -> None:
        """Quoted spans go to the free-text parameters; the other rules then no longer see what is
        inside them.
        """
        texts = [p for p in self.params if self.kinds[p.name] in ("text", "thing")]
        if not texts:
            return
        for source in self.sources[
            :2
        ]:  # the whole request holds the other intents' quotes too: not ours
            chosen = quotes_for(texts, source)
            if chosen:
                self.quoted = {name: quote.text for name, quote in chosen.items()}
                break
        if (
            texts
        ):  # "主题：周会，内容：明天十点开会", "原因是新同事入职", "with the subject customer list"
            for index, source in enumerate(self.sources[:2]):
                labelled = labelled_for([p for p in texts if p.name not in self.quoted], source)
                if labelled:
                    self.labelled = {name: value for name, (value, _, _) in labelled.items()}
                    if index == 0:
                        self.labelled_spans = [
                            (start, stop) for _, start, stop in labelled.values()
                        ]
                    break
        if self.quoted:
            # what is quoted is content, not a city, a date or a count for the other parameters
            self.sources = [
                blank(s, [(q.start, q.end) for q in find_quotes(s)]) for s in self.sources
            ]
            self.segment, self.context = self.sources[0], self.sources[1]

    def pairs(self) -> None:
        """Two or more parameters drawing on one kind of value (a shared enum, currencies, cities)
        take their values by role: from/to words and order of mention, never one value twice (see
        ``roles``).
        """
        groups: dict[Any, list[Param]] = {}
        for param in self.of_kind("enum", "currency", "city", "pattern"):
            kind = self.kinds[param.name]
            if kind == "pattern":
                # "从 A1001 转到 A1002": two ids of one shape told apart by role, never fanned out
                if role_of(param) == NEITHER:
                    continue
                key = ("pattern", tuple(r.pattern for r in patterns_of(param)))
            elif kind == "enum":
                key = (
                    "enum",
                    enum_family(param.enum or []) or tuple(sorted(map(str, param.enum or []))),
                )
            else:
                key = (kind,)
            groups.setdefault(key, []).append(param)
        for key, params in groups.items():
            if len(params) < 2 or (key == ("city",) and all(role_of(p) == NEITHER for p in params)):
                # a lone parameter; cities without roles fan out ("北京和上海" → two calls)
                continue
            self.paired.update(p.name for p in params)
            for index, source in enumerate(self.sources[:3]):
                mentions = self.mentions(key[0], params, source)
                roles = [mention_role(source, span) for _, span in mentions]
                marked = [r for r in roles if r != NEITHER]
                if key[0] == "pattern" and (not marked or len(set(marked)) < len(marked)):
                    break  # ids with no words for their roles, or two for one: asked, not guessed
                if mentions:
                    if index == 0:
                        self.used_spans.extend(span for _, span in mentions)
                    for name, value in assign_roles(params, mentions, source).items():
                        param = next(p for p in params if p.name == name)
                        self.values[name] = self.written(param, value)
                    break

    def mentions(self, kind: str, params: list[Param], text: str) -> list[tuple[Any, Span]]:
        """Every mention (repeats kept) of a value any of ``params`` accepts, in order."""
        if kind == "currency":
            return find_currencies(text, every=True)
        if kind == "pattern":
            upper = wants_upper(params[0])
            found = [hit for regex in patterns_of(params[0]) for hit in regex.finditer(text)]
            return sorted(
                ((m.group(0).upper() if upper else m.group(0), m.span()) for m in found),
                key=lambda item: item[1],
            )
        if kind == "city":
            return find_cities(text, self.english_cities(params[0]), every=True)
        hits = {
            span: value for param in params for value, span in find_enum(param, text, every=True)
        }
        return sorted(((value, span) for span, value in hits.items()), key=lambda item: item[1])

    def english_cities(self, param: Param) -> bool:
        examples = examples_of(param)
        return all(e.isascii() for e in examples) if examples else self.english

    def written(self, param: Param, value: Any) -> Any:
        """A value in the form the parameter asks for: a currency code, or its Chinese name when the
        examples are Chinese.
        """
        if self.kinds[param.name] == "currency" and isinstance(value, str) and value in CURRENCIES:
            chinese_style = any(re.search(f"[{CJK_RANGE}]", e) for e in examples_of(param))
            return CURRENCIES[value][0] if chinese_style else value
        return value

    def field_value(self) -> None:
        """A field named with its new value, for a tool that sets one field by name (``fields``):
        "C123 的 phone 为 139…" → (phone, 139…)."""
        pair = fields.field_pair(self.params)
        if pair is None:
            return
        for source in (self.segment, self.context):
            said = fields.field_and_value(source)
            if said:
                field, value = pair
                if field.enum and said[0] not in field.enum:
                    return  # a field the tool does not list: asked, not guessed
                self.values[field.name], self.values[value.name] = said
                self.paired |= {field.name, value.name}
                return

    def set_fields(self) -> None:
        """Values set in place of a field's ("负责人改为陈晨", ``fields.set_clauses``): each to the
        parameter its field names, here or in the rest of the request; one field set to two values
        is asked."""
        self.bound: dict[str, set[str]] = {}  # value -> the parameters its fields name ("": none)
        self.set_said: set[str] = set()  # the parameters so filled
        if fields.field_pair(self.params) or not fields.chinese_labels(self.params):
            return
        for field, value in fields.set_clauses(normalize(self.ctx.request)):
            owner = fields.field_param(field, self.params)
            self.bound.setdefault(value, set()).add(owner.name if owner else "")
        for param in self.of_kind(*_SET_KINDS):
            for source in (self.segment, self.context) if param.type == "string" else ():
                said = {
                    v
                    for f, v in fields.set_clauses(source)
                    if fields.field_param(f, self.params) is param
                }
                if said:
                    if len(said) == 1:
                        self.values[param.name] = said.pop()
                        self.set_said.add(param.name)
                    self.paired.add(param.name)  # two values for one field: asked
                    break

    def unbind(self) -> None:
        """A value the request sets for one field is no other parameter's ("客房名称改为海景房"
        never fills the manager's name)."""
        if self.fanout and self.kinds[self.fanout[0]] in _SET_KINDS:  # the values left, one each
            name, options = self.fanout
            kept = [o for o in options if not (self.bound.get(o, {name}) - {name})]
            self.fanout = (name, kept) if len(kept) > 1 else None
            self.values[name] = kept[0] if kept else options[0]
        for name, value in list(self.values.items()):
            owners = self.bound.get(value) if isinstance(value, str) else None
            if owners and name not in owners and self.kinds[name] in _SET_KINDS:
                del self.values[name]

    def currencies(self) -> None:
        """A currency parameter without a partner: the first currency named."""
        for param in self.of_kind("currency"):
            mentions = self.take([find_currencies(s) for s in self.sources[:3]])
            if mentions:
                self.values[param.name] = self.written(param, mentions[0])

    def yes_no(self, param: Param) -> None:
        """An enum of yes/no values (["yes", "no"], ["是", "否"], ["Y", "N"]) is filled like a
        boolean.
        """
        answer = boolean_value(param, self.sources[:3])
        if answer is None:
            answer = bare_yes_no(self.segment)
        if answer is not None:
            wanted = "yes" if answer else "no"
            self.values[param.name] = next(
                v for v in param.enum or [] if any(c.key == wanted for c in concepts_of(v))
            )

    def text(self, param: Param) -> str | None:
        """A quote meant for this parameter, or the words its label introduces; else the request's
        words, for the parameter that holds the content and for other required ones (an optional one
        is not filled twice).
        """
        if param.name in self.quoted:
            return self.quoted[param.name]
        if param.name in self.labelled:
            labelled = self.labelled[param.name]
            return self.said_before(param) if SAME_AS_BEFORE.search(labelled) else labelled
        if one_word(param) and len(examples_of(param)) >= 2:
            # "科目（如：数学、化学）": one of a kind of values, said by its label or as one of the
            # examples; never the request's other words ("预约一节辅导课" names no subject)
            return next((e for e in examples_of(param) if e in self.segment), None)
        texts = [p for p in self.params if self.kinds[p.name] == "text"]
        main = next((p for p in texts if CONTENT_WORDS.search(p.words)), None) or next(
            (p for p in texts if p.required), texts[0]
        )
        if param is not main and (not param.required or self.quoted or self.labelled):
            return None
        if SAME_AS_BEFORE.search(self.context):
            return self.said_before(param)
        if not CONTENT_WORDS.search(param.words) and any(
            self.kinds[p.name] == "thing" for p in self.params
        ):
            # a reason or a note beside a thing to act on: the clause nothing else took ("…，办公室
            # 用纸不够了"); none left means the user did not say it (asked for, not made up from the
            # other words)
            rest = self.leftover()
            return rest[-1] if rest else None
        # the segment without what the other parameters took (a phone number, an id, a labelled
        # subject), so it is not repeated here; when nothing is left, the whole request (a required
        # text must say something)
        taken = self.used_spans + self.labelled_spans
        rest = blank(self.segment, taken) if taken else self.ctx.segment
        found = free_text(rest) or free_text(self.ctx.segment) or None
        if found and SEARCH_WORDS.search(param.words):
            found = self.without_action(found)
        elif found and not CONTENT_WORDS.search(param.words):
            found = self.one_clause(found)
            found = found and self.named_after_verb(found)
        if found and SEARCH_WORDS.search(param.words):
            found = without_own_words(found, self.own_words())
        if found and SAME_AS_BEFORE.search(found):
            return self.said_before(param)
        for value in (
            self.values.values()
        ):  # "通知李四明天的会议取消了": the message does not repeat whom it is for
            if found and isinstance(value, str) and len(value) >= 2:
                trimmed = re.sub(
                    rf"^(?:告诉|提醒|通知|转告|跟|和|给|对)?\s*{re.escape(value)}\s*(?:说一声|说一"
                    rf"下|说|一声|一下)?\s*[，"
                    r",:：]?\s*",
                    "",
                    found,
                )
                found = trimmed or found
        return found

    def without_action(self, found: str) -> str | None:
        """A search term without the order's own verb: "统计一下销量" → 销量 for a verb that finds
        things out; none at all for one that asks for something else ("续借一本书" is what the user
        wants done, never what to search for)."""
        verb = ordered_verb(self.ctx.segment)
        if not verb or not found.startswith(verb):
            return found
        if not reading_verb(verb) and verb not in str(self.spec.get("description", "")):
            return None
        rest = re.sub(r"^\s*(?:一下|下)?\s*", "", found[len(verb) :])
        return rest or found

    def one_clause(self, found: str) -> str | None:
        """A name or a title is said in one clause: of several, the one no other parameter's
        value or label is in ("添加Python课，老师是王老师" → 添加Python课); none or two such
        clauses, and it is asked for."""
        clauses = [c.strip() for c in re.split(r"[，,；;。]", found) if c.strip()]
        if len(clauses) < 2:
            return found
        held = [v for v in self.values.values() if isinstance(v, str) and len(v) >= 2]
        mine = [
            c
            for c in clauses
            if not any(v in c for v in held)
            and not re.search(r"(?:是|为|[:：])\s*$", c)  # a label whose value was taken
        ]
        return mine[0] if len(mine) == 1 else None

    def named_after_verb(self, found: str) -> str | None:
        """A name or a title without the order's own verb, its article and the tool's own noun:
        "添加一门课程Data Science Basics" → Data Science Basics for a tool that adds courses; the
        verb is never part of the thing's name, and nothing left is no name at all."""
        words = split_identifier(str(self.spec.get("name", "")))
        description = str(self.spec.get("description", "") or "")
        verbs = [ordered_verb(self.ctx.segment), description[:2]]
        verbs.append(VERBS.get(words[0], ("",))[0] if words else "")
        # "帮 添加一门钢琴课" once the person it is for is taken: the request's own words first
        found = re.sub(r"^(?:请|麻烦|帮忙|帮|替)\s*(?=\S)", "", found)
        if found[:2] in members(found[:2]):
            verbs.append(found[:2])  # "新增活动春季徒步": a verb the vocabulary knows, as written
        verb = next((v for v in verbs if v and found.startswith(v)), None)
        if not verb or reading_verb(verb) or not request_actions(verb) - {READ}:
            return found
        rest = _ARTICLE.sub("", found[len(verb) :])
        own = self.own_words() | frozenset(expand(" ".join(words)).split())
        # the tool's own noun before the name ("课程机器学习" → 机器学习) or after it ("Python进阶
        # 课程" → Python进阶): the longest word of it there, never more than that word
        run = re.match(r"[\u4e00-\u9fff]*", rest).group(0)
        lead = next(
            (
                rest[:n]
                for n in (4, 3, 2, 1)
                if n <= len(run)
                and (n > 1 or len(run) == 1)  # "书Clean Code": a noun of one character, alone
                and (rest[:n] in description or rest[:n] in own)
            ),
            "",
        )
        if lead and rest[len(lead) :].strip():
            rest = rest[len(lead) :]
        rest = rest.strip(" ：:，,")
        tail = next(
            (
                rest[-n:]
                for n in (4, 3, 2)
                if len(rest) - n >= 2
                and re.fullmatch(r"[\u4e00-\u9fff]+", rest[-n:])
                and (rest[-n:] in description or rest[-n:] in own)
            ),
            "",
        )
        if tail:
            rest = rest[: -len(tail)].strip()
        return rest if len(rest) >= 2 else None

    def said_before(self, param: Param) -> str | None:
        """ "内容和上次一样": this parameter's text in the tool's last call of the conversation, or
        nothing (then it is asked for, not made up from the request's words)."""
        earlier = [
            arguments.get(param.name)
            for spec, arguments, _ in (*self.ctx.seen_calls, *self.ctx.previous_calls)
            if spec.get("name") == self.spec.get("name")
            and isinstance(arguments.get(param.name), str)
        ]
        return earlier[-1] if earlier else None

    def leftover(self) -> list[str]:
        """The clauses of the request that no other parameter took (their values and every number
        blanked out).
        """
        spans = [
            (n.start, n.end + len(re.match(r"\s*\S?", self.context[n.end :]).group(0)))
            for n in find_numbers(self.context)
        ]
        # a number and its measure word ("一台", "4 把", "25 元"), and what labels a number ("单价
        # 1500", "每台三千五")
        labels = [
            re.escape(p.label())
            for p in self.params
            if re.fullmatch(f"[{CJK_RANGE}]{{2,8}}", p.label())
        ]
        spans += [
            (m.start(), m.end())
            for m in re.finditer(
                rf"(?:每\s*[{CLASSIFIERS}]|{'|'.join(labels) or '(?!)'})\s*(?:是|为|[:：])?",
                self.context,
            )
        ]
        for value in self.values.values():
            if isinstance(value, str) and len(value) >= 2:
                spans += [(m.start(), m.end()) for m in re.finditer(re.escape(value), self.context)]
        return leftover_clauses(blank(self.context, spans), self.own_words())

    def datetimes(self) -> None:
        """Dates and times, formatted as each parameter asks; a start/end pair takes the
        first/second mention.
        """
        params = self.of_kind("datetime")
        if not params:
            return
        today = self.ctx.now.date()
        dates = next(
            (found for found in (find_dates(s, today) for s in self.sources[:3]) if found), []
        )
        times = next((found for found in (find_times(s) for s in self.sources[:3]) if found), [])
        self.used_spans.extend(span for _, span in find_dates(self.segment, today))
        self.used_spans.extend(span for _, span in find_times(self.segment))
        said = " ".join(self.sources[:3])
        full = {day for day, (a, b) in find_dates(said, today) if re.search(r"\d{4}", said[a:b])}
        if full and max(role_of(p) for p in params) <= 0:
            if len({day for day, _ in find_dates(said, today)}) > 1:
                return  # "周六 2026-04-05" (a Sunday): which day is meant is asked
            dates = [hit for hit in find_dates(said, today) if hit[0] in full]
        vague = vague_day(said) if not dates else None
        parts = next((found for found in (find_parts(s) for s in self.sources[:3]) if found), [])
        said_at = next((s for s in self.sources[:3] if find_times(s)), "")
        bare = set(ambiguous_times(said_at))  # spans in the text the times were read from
        morning = set(morning_by_default(said_at))  # "9点": 09:00 unless that has passed
        lasting = find_duration(said) if len(times) == 1 else None
        start: datetime | None = None
        for param in sorted(params, key=lambda p: max(role_of(p), 0)):
            index = max(role_of(param), 0)
            fmt = date_format(param)
            if index == 1 and lasting and start is not None and "%H" in fmt:
                # "三点开始，开一个半小时": the end is the start plus the length
                self.values[param.name] = (start + timedelta(minutes=lasting)).strftime(fmt)
                continue
            day = dates[min(index, len(dates) - 1)][0] if dates else None
            clock = times[index][0] if len(times) > index else None
            if clock is None and len(parts) > index and default_hour(parts[index][0]) is not None:
                clock = (default_hour(parts[index][0]) or 0, 0)  # "中午" is 12:00 by custom
            if "%H" in fmt and clock is None:
                continue  # the format needs a time of day nobody gave ("后天一早": ask)
            if "%H" in fmt and len(times) > index and times[index][1] in bare:
                continue  # "明天 3 点": 03:00 or 15:00, asked, never guessed
            if "%d" in fmt and day is None:
                if clock is None or vague:
                    continue  # "这周末三点": Saturday or Sunday, never today
                day = today  # "3点" alone means today
            moment = datetime.combine(day or today, datetime.min.time())
            if clock:
                moment = moment.replace(hour=clock[0], minute=clock[1])
                if (
                    "%H" in fmt
                    and any(times[i][1] in morning for i in range(min(len(times), 2)))
                    and moment + timedelta(hours=12) > self.ctx.now > moment
                ):
                    continue  # "今天 9 点" at 14:30: 09:00 has passed, 21:00 may be meant — ask
                start = moment if index == 0 else start
            self.values[param.name] = moment.strftime(fmt)

    def clock_hour(self, param: Param) -> int | None:
        """The hour of the time said for this role ("晚上 7 点" → 19, "中午" → 12); none for an
        hour that could be night or day ("7 点": asked, never guessed) or a time past the hour."""
        hours = [p for p in self.params if is_clock_hour(p)]
        index = max(role_of(param), 0) if len(hours) > 1 else 0
        for source in self.sources[:3]:
            times = find_times(source)
            if len(times) > index:
                (hour, minute), span = times[index]
                # "三点半" is no whole hour: asked, never cut to 15
                return None if minute or span in set(ambiguous_times(source)) else hour
            parts = find_parts(source)
            if not times and len(parts) > index:
                return default_hour(parts[index][0])
        return None

    def entity(self, param: Param) -> None:
        """Enum values, ids matching a pattern, cities, people's names, literal examples."""
        kind = self.kinds[param.name]
        found: list[Any] = []
        if kind == "enum":
            by_source = [find_enum(param, s) for s in self.sources[:3]]
            found = self.take(by_source)
            said = [self.segment[a:b] for _, (a, b) in by_source[0]]
            if (
                len(set(found)) == len(found) > 1
                and self.fanout is None
                and own_clauses(self.segment, self.ctx.context, said)
            ):
                # "现金 300，微信 200": one call per value, each clause with its own values
                self.fanout = (param.name, found)
                self.fanout_words = said
        elif kind == "pattern":
            upper = wants_upper(param)
            for regex in patterns_of(param):
                found = self.take([find_pattern(regex, s, upper) for s in self.sources[:3]])
                if found:
                    break
            # not in the request: ``settle`` looks in the earlier results, once the numbers are
            # known
        elif kind == "city":
            found = self.take(
                [find_cities(s, self.english_cities(param)) for s in self.sources[:3]]
            )
        elif kind == "person":
            labelled = self.person_labels().get(param.name)
            if labelled:
                self.values[param.name] = labelled  # "客户名为张三", "姓名为John Doe"
                return
            if sum(self.kinds[p.name] == "person" for p in self.params) > 1:
                # a student and a coach: a name goes to the one its label or title says, never to
                # both, never one call per person — else it is asked
                by_role = self.person_by_role(param) or self.person_left(param)
                if by_role:
                    self.values[param.name] = by_role
                return
            literal = [
                (e, (self.segment.find(e), self.segment.find(e) + len(e)))
                for e in examples_of(param)
                if e in self.segment
            ]
            # the example's name and those joined to it ("给陈晨和王芳…": both, never the example
            # alone)
            if literal:
                literal += [h for h in find_people(self.segment) if h[0] not in dict(literal)]
            # "剪毛服务" for a service whose examples name 剪毛: 毛服务 is no person
            words = [e for p in self.params if p is not param for e in examples_of(p) if len(e) > 1]

            def people_in(text: str) -> list[tuple[str, Span]]:
                spans = [m.span() for w in words for m in re.finditer(re.escape(w), text)]
                return [
                    hit
                    for hit in find_people(text)
                    if not any(a < hit[1][1] and hit[1][0] < b for a, b in spans)
                ]

            found = self.take(
                [coordinated(literal, self.segment)]
                + [coordinated(people_in(s), s) for s in self.sources[:2] + self.sources[3:]]
            ) or self.take([bare.people(s) for s in self.sources[1:3]])
        else:
            found = self.take(
                [
                    [(e, (s.find(e), s.find(e) + len(e))) for e in examples_of(param) if e in s]
                    for s in self.sources[:3]
                ]
            )
        if not found:
            return
        if len(found) > 1 and self.fanout is None and kind in ("pattern", "city", "person"):
            self.fanout = (param.name, found)  # "北京和上海" → one call per city
        self.values[param.name] = found[0]

    def person_by_role(self, param: Param) -> str | None:
        """The one name the request ties to this parameter's person noun (学员, 教练 in "学员姓名",
        "教练名字"): right after it ("学员刘洋", "教练是王伟"), or a name or a surname right before
        it ("刘洋教练", "王教练"); None when no name, or two, is tied to it."""
        nouns = PERSON_NOUNS.findall(param.label())
        if len(set(nouns)) != 1:
            return None
        noun = re.escape(nouns[0])
        hits: set[str] = set()
        for source in self.sources[:2]:
            for name, (start, end) in find_people(source):
                before, after = source[max(0, start - 6) : start], source[end : end + 4]
                if (
                    re.search(rf"{noun}\s*(?:是|为|叫|[:：])?\s*$", before)
                    or re.match(noun, after)
                    or re.fullmatch(rf"[{SURNAME_CHARS}]{noun}", name)  # "王教练"
                ):
                    hits.add(name)
        return hits.pop() if len(hits) == 1 else None

    def person_left(self, param: Param) -> str | None:
        """The one name no other person parameter takes (by label or role), for the one person
        parameter nothing else fills ("张三想要更新账号，新的用户名为李四" → 张三); else None."""
        people = [p for p in self.params if self.kinds[p.name] == "person"]
        labels = self.person_labels()
        taken = {p.name: labels.get(p.name) or self.person_by_role(p) for p in people}
        if [p.name for p in people if not taken[p.name]] != [param.name]:
            return None
        named = {name for source in self.sources[:2] for name, _ in find_people(source)} - set(
            taken.values()
        )
        return named.pop() if len(named) == 1 else None

    def labelled_number(self, param: Param) -> int | float | None:
        """A number after the parameter's label ("年龄为30"), here or in a clause of its own."""
        for source in (self.segment, *self.free_clauses()):
            said = bare.by_label([param], source, self.params).get(param.name)
            if said and re.fullmatch(r"\d+(?:\.\d+)?", said[0]):
                return float(said[0]) if "." in said[0] else int(said[0])
        return None

    def free_clauses(self) -> list[str]:
        """The request's clauses outside the segment ("编号为101") when none orders anything of
        its own: their values are the segment's (with "我要寄一份快件…" they are not)."""
        others = [c for c in CLAUSE_BREAK.split(self.context) if c and c not in self.segment]
        heads = [re.split(r"是|为|[:：]", c, maxsplit=1)[0] for c in others]  # not "计算机科学"
        return [] if any(ordered_verb(h) or request_actions(h) for h in heads) else others

    def person_labels(self) -> dict[str, str]:
        """People's names the request gives after their parameter's label, in the segment or a
        clause that orders nothing ("客户名为张三")."""
        people = self.of_kind("person")
        found: dict[str, str] = {}
        for source in (self.segment, *self.free_clauses()):
            for name, (value, _, _) in bare.by_label(people, source, self.params).items():
                found.setdefault(name, value)
        return {n: v for n, v in found.items() if not re.search(r"\d", v)}

    def name_parts(self) -> None:
        """A whole name into a given-name and a family-name parameter (``bare.name_pair``), and a
        product's name into a make and a model parameter (``bare.maker_pair``)."""
        open_params = [p for p in self.params if p.name not in self.values]
        made = bare.maker_pair(open_params)
        product = made and bare.make_and_model(self.segment)
        if made and product:
            # "注册一辆Toyota Corolla": the maker, then its model
            self.values[made[0].name], self.values[made[1].name] = product[0], product[1]
            self.used_spans.append(product[2])
        pair = bare.name_pair(open_params)
        if pair is None:
            return
        here = bare.full_name(self.segment)  # spans are of the segment; the context lends none
        found = here or bare.full_name(self.context)
        if found:
            given, family, span = found
            self.values[pair[0].name], self.values[pair[1].name] = given, family
            if here:
                self.used_spans.append(span)

    def latin_tails(self) -> None:
        """A value in Latin words goes on past a comma and a space before a capitalised word ("12
        King St, Toronto"): read clause by clause, it stopped at the comma. Not a person's name
        ("Tom, Ann" are two people) nor an id."""
        for name, value in list(self.values.items()):
            if (
                not isinstance(value, str)
                or not re.search(r"[A-Za-z0-9]$", value)
                or self.kinds.get(name) in ("person", "pattern", "enum")
            ):
                continue
            for source in (self.segment, self.context):
                at = source.find(value)
                tail = _LATIN_TAIL.match(source, at + len(value)) if at >= 0 else None
                if tail:
                    self.values[name] = value + tail.group(0)
                    break

    def named_kind(self) -> None:
        """ "一只名为小花的狗": the name a request gives (名为/名叫/叫) to the tool's one name
        parameter, and the noun after its 的 to the one parameter of a kind (种类, 品种, species),
        unless that noun is the tool's own ("名为小花的宠物" gives no kind); asked when two
        parameters could take either."""
        said = list(_NAMED_KIND.finditer(self.segment))
        if len(said) != 1:
            return
        open_params = [
            p
            for p in self.params
            if p.type == "string" and p.name not in self.values and p.name not in self.quoted
        ]
        kinds = [p for p in open_params if _KIND_WORDS.search(p.words)]
        names = [
            p
            for p in open_params
            if bare.NAME_WORDS.search(p.words) and not bare.is_id(p) and p not in kinds
        ]
        if len(names) != 1:
            return
        match = said[0]
        self.values[names[0].name] = match.group(1)
        self.used_spans.append(match.span(1))
        noun = match.group(2)
        description = str(self.spec.get("description", "") or "")
        if len(kinds) == 1 and noun not in description and not set(tokens(noun)) & self.own_words():
            self.values[kinds[0].name] = noun
            self.used_spans.append(match.span(2))

    def english_names(self) -> None:
        """Capitalised names in an English request (``bare.english_names``): a name ending with a
        parameter's own noun ("Science Museum" → ``museum_name``) goes to it; then the one name
        left, if exactly one, to the one person parameter ("John Doe" → ``visitor_name``). Two
        names for one parameter, or two left for a person: asked, not guessed."""
        if not self.english:
            return
        names = [
            (name, span)
            for name, span in bare.english_names(self.segment)
            if not any(span[0] < end and start < span[1] for start, end in self.used_spans)
        ]
        if not names:
            return
        nouns = {p.name: set(split_identifier(p.name)) - {"name"} for p in self.params}
        open_params = [
            p
            for p in self.of_kind("unknown", "person")
            if p.type == "string" and p.name not in self.quoted
        ]
        headed = {
            name for name, _ in names if name.split()[-1].lower() in set().union(*nouns.values())
        }
        for param in open_params:
            if self.kinds[param.name] == "person":
                continue
            mine = [(n, s) for n, s in names if n.split()[-1].lower() in nouns[param.name]]
            if len(mine) == 1:
                self.values[param.name] = mine[0][0]
                self.used_spans.append(mine[0][1])
        people = [p for p in open_params if self.kinds[p.name] == "person"]
        left = [(n, s) for n, s in names if n not in headed]
        if len(people) == 1 and len(left) == 1:
            self.values[people[0].name] = left[0][0]
            self.used_spans.append(left[0][1])

    def bare(self) -> None:
        """String parameters of no known kind, and ids whose example's letters are nowhere (see
        ``bare``): by label, by an id's shape, by the verb's object; one reading each, else
        asked."""
        for param in self.of_kind("pattern"):
            shapes = [] if param.schema.get("pattern") else bare.loosened(param)
            found = self.take([find_pattern(r, s, True) for r in shapes for s in self.sources[:1]])
            if len(set(found)) == 1:
                self.values[param.name] = found[0]
        # "用户名为 john_doe" for an example "user1234": the label says it, the example only shows
        loose = [p for p in self.of_kind("pattern") if not p.schema.get("pattern")]
        for source in (self.segment, self.context):
            for name, (value, span, _) in bare.by_label(loose, source, self.params).items():
                self.values.setdefault(name, value)
                if source is self.segment:
                    self.used_spans.append(span)
        # "地点是在公园": a place its label says, though no city ("在" only says where)
        places = [p for p in self.of_kind("city") if p.name not in self.values and not p.enum]
        for source in (self.segment, self.context):
            for name, (value, span, _) in bare.by_label(places, source, self.params).items():
                place = re.sub(r"^(?:在|于)", "", value)
                if len(place) >= 2 and not re.search(r"[A-Za-z0-9]", place):
                    self.values.setdefault(name, place)
                    if source is self.segment:
                        self.used_spans.append(span)
        params = [p for p in self.of_kind("unknown") if p.type == "string"]
        params += [p for p in self.of_kind("thing") if p.name not in self.quoted]
        if not params:
            return
        owners = set()
        # a field a set value filled still tells whose it is ("东三货架的所属区域改为…")
        told = [
            p for p in self.params if p.name in self.set_said and self.kinds[p.name] == "unknown"
        ]
        for name, (value, span, owner) in bare.by_label(params + told, self.segment).items():
            if name not in self.set_said:
                self.values[name] = value
            self.used_spans.append(span)
            if owner:
                owners.add(owner)
        for clause in self.free_clauses():
            for name, (value, _, _) in bare.by_label(params, clause, self.params).items():
                self.values.setdefault(name, value)  # "添加班级，编号为101": in another clause
        for source in (self.segment, *self.free_clauses()):
            for name, value in bare.by_head_noun(params, source).items():
                self.values.setdefault(name, value)  # "403 号车位", "A座停车场"
        self.label_said = {p.name for p in params if p.name in self.values}
        rest = [p for p in params if p.name not in self.values]
        ids = [p for p in rest if bare.is_id(p)]
        # a code another parameter took by its noun ("病人ID是P0042") is no value of this one
        held = {str(v) for v in self.values.values()}
        codes = [c for c in bare.codes(self.segment, self.used_spans) if c[0] not in held]
        others = [c for c in CLAUSE_BREAK.split(self.context) if c and c not in self.segment]
        if not codes and others == self.free_clauses():
            # "我的客户ID是12345，…，我正在登记客户": the id in another clause, one that orders
            # nothing of its own ("我要寄一份快件…": its values are for what no tool does)
            taken = {str(v) for v in self.values.values()}
            codes = [c for c in bare.codes(self.context, []) if c[0] not in taken]
        if len(ids) == 1 and not codes:
            codes = bare.numbered_noun(ids[0], self.segment)  # "884213号停车证"
        if len(ids) == 1 and len({value for value, _ in codes}) == 1:
            self.values[ids[0].name] = codes[0][0]
            self.used_spans.append(codes[0][1])
        names = [p for p in rest if bare.NAME_WORDS.search(p.words) and not bare.is_id(p)]
        words = split_identifier(str(self.spec.get("name", "")))
        description = str(self.spec.get("description", "") or "")
        verbs = [VERBS.get(words[0], ("",))[0] if words else "", description[:2]]
        named = bare.after_verb(self.segment, [v for v in verbs if v]) if not owners else None
        if named and named[0] in description:
            named = None  # "报名读书会" to a tool that 报名加入读书会: the tool's own object
        if len(names) == 1 and (len(owners) == 1 or named):
            self.values[names[0].name] = owners.pop() if owners else named[0]
        rest = [p for p in rest if p.name not in self.values and not bare.is_id(p)]
        said = bare.IS_CLAUSE.findall(self.context)
        if named and len(rest) == 1 and len(said) == 1:
            self.values[rest[0].name] = said[0]  # "注册小花，是哈士奇": what the named one is

    def number_nearby(self, param: Param) -> int | float | None:
        """A number with the parameter's unit elsewhere in the request ("…会议室，8个人")."""
        today = self.ctx.now.date()
        spans = [span for _, span in find_dates(self.context, today)] + [
            span for _, span in find_times(self.context)
        ]
        spans += self.context_own  # "提交一个采购申请": the request counted, not a quantity
        masked = blank(
            self.context,
            spans
            + [
                m.span()
                for regex in all_patterns(self.params)
                for m in regex.finditer(self.context)
            ],
        )
        numbers = find_numbers(masked)
        found = pick_number(param, masked, numbers, set(), unit_only=True)
        if (
            found is None
            and len(numbers) == 1
            and not find_numbers(blank(self.segment, self.used_spans))
        ):
            found = pick_number(
                param, masked, numbers, set()
            )  # "从日元换成美元，5000": the one number there is
        return found

    def expression(self) -> str | None:
        """A math expression; one that needs an earlier result waits for it (or fails without
        one).
        """
        found = extract_expression(
            blank(self.segment, self.used_spans), has_previous=self.ctx.has_previous
        )
        if found is None:
            return None
        text = found.text
        if found.lone_number and self.ctx.has_previous and DEPENDENT_WORDS.search(self.segment):
            # "计算 100 美元能换多少人民币" after a rate lookup: 100 * rate
            text = f"{text} * {PREV}"
        if PREV in text:
            if self.ctx.previous_number is None:
                self.needs_previous = self.needs_previous or self.ctx.has_previous
                return None
            text = text.replace(PREV, format_number(self.ctx.previous_number))
        return text

    def array(self, param: Param) -> list[Any] | None:
        """Arrays of enum values, ids or cities: every one mentioned."""
        items = param.schema.get("items") or {}
        item = Param(
            param.name,
            {**items, "description": items.get("description") or param.description},
            False,
        )
        kind = classify(item)
        if kind == "enum":
            found = find_enum(item, self.segment) or find_enum(item, self.context)
        elif kind == "pattern":
            found = sorted(
                (
                    hit
                    for regex in patterns_of(item)
                    for hit in find_pattern(regex, self.context, wants_upper(item))
                ),
                key=lambda hit: hit[1],
            )
            found = [
                hit
                for hit in expand_ranges(found, self.context)
                if not excluded(hit[1], self.context)
            ]
            # "除了 C002 以外的客户": who is left out is said, who is meant is not — nothing here to
            # fill the list with
            if not found and _POINTS_BACK.search(self.segment):
                # "如果 C017 是金卡会员，就给他发短信": "他" is the one id the request names
                named = {
                    value
                    for regex in patterns_of(item)
                    for value, span in find_pattern(regex, self.sources[2], wants_upper(item))
                    if not excluded(span, self.sources[2])
                }
                found = [(named.pop(), (0, 0))] if len(named) == 1 else []
        elif kind == "city":
            found = find_cities(self.context, self.english)
        else:
            found = []
        return (
            list(dict.fromkeys(value for value, _ in found)) or None
        )  # each one once, however many patterns found it


# a word that points back at someone the request named ("给他发", "通知这位客户")
_POINTS_BACK = re.compile(
    r"(?<![其])[他她它](?!人)|这位|这个客户|该客户|对方|\b(?:him|her|them|this customer)\b", re.I
)

# "内容和上次一样", "跟之前那条一样", "同上": the text is one said before, not these words
SAME_AS_BEFORE = re.compile(
    r"(?:和|跟|同|与)(?:上次|上一次|上回|之前|刚才|前面|上面)(?:的|那条|那封|那个)?(?:一样|相同|一"
    r"致)|同上|照旧|老样子"
    r"|\bsame\s+(?:text\s+|message\s+|content\s+)?as\s+(?:last\s+time|before|earlier)\b",
    re.I,
)


_PRICED = re.compile(
    rf"([{CJK_RANGE}]{{2,10}}?)\s*(?:是|为)?\s*(\d+(?:\.\d+)?|[一二两三四五六七八九十百千万]+)"
    rf"(?!\s*(?:{MEASURE_UNITS}))\s*"  # "采购 27 寸显示器": a size, no price
    r"(?:元|块钱|块)?\s*(?=[，,。；;、\s]|$)"
)
_PRICE_LEAD = re.compile(r"^(?:.*?(?:收了|交了|付了|缴了|登记一下|登记|记一下|还有|另外|再|和|跟))")
_NO_THING = re.compile(
    r"单价|价格|金额|数量|总价|总共|一共|合计|共计|人数|积分|库存|[点时分天号月年周岁]$"
    r"|[乘除加减倍]|次方|平方|等于|是多少"  # "再乘以 2": arithmetic, no thing
    r"|上午|下午|中午|晚上|早上|凌晨|傍晚|[今明后昨]天|星期|礼拜"  # "明天下午 3": a time
)


def priced_things(text: str) -> list[tuple[str, Span]]:
    """Things the request names by what they cost ("检查费 150", "交了药费 80 元"): the Chinese
    words right before an amount that ends its clause, without the verb before them; never a label
    of a number (单价, 数量) or a time (3 点)."""
    found = []
    for match in _PRICED.finditer(text):
        name = _PRICE_LEAD.sub("", match.group(1))
        if len(name) < 2 or _NO_THING.search(name):
            continue
        start = match.start(1) + match.group(1).rfind(name)
        found.append((name, (start, start + len(name))))
    return found


_CLAUSE_END = re.compile(r"[；;。\n]")
_CLAUSE_OR_COMMA_END = re.compile(r"[；;。\n，,、]")


def own_clauses(segment: str, context: str, options: list[str]) -> list[tuple[str, str]] | None:
    """See ``_own_clauses``: clauses cut at "；" and "。", else also at "，" and "、"."""
    return _own_clauses(segment, context, options, _CLAUSE_END) or _own_clauses(
        segment, context, options, _CLAUSE_OR_COMMA_END
    )


def _own_clauses(
    segment: str, context: str, options: list[str], ends: re.Pattern[str]
) -> list[tuple[str, str]] | None:
    """The words of each of several values a call is made for, when each has a clause of its own
    (split at "；" or "。") that tells more than the value: ``(segment, context)`` per value, with
    the other values' clauses blanked out. ``None`` when the values share their words ("LC3301 和
    LC3302 都取消了"): every call takes the same values."""
    pieces: list[tuple[int, int]] = []
    start = 0
    for match in ends.finditer(segment + "。"):
        if segment[start : match.start()].strip():
            pieces.append((start, match.start()))
        start = match.end()
    owners = []
    for option in options:
        holding = [i for i, (a, b) in enumerate(pieces) if str(option) in segment[a:b]]
        if len(holding) != 1:
            return None
        owners.append(holding[0])
    if len(set(owners)) != len(owners):
        return None
    rests = {
        re.sub(r"\s+", "", segment[a:b].replace(str(option), ""))
        for option, (a, b) in zip(options, (pieces[i] for i in owners))
    }
    if len(rests) < len(owners):
        return None  # the clauses differ only in the value
    out = []
    for own in owners:
        segment_i, context_i = segment, context
        for option, other in zip(options, owners):
            if other == own:
                continue
            # from the other value on: the words before it ("登记一下：") lead every clause
            a, b = pieces[other]
            words = segment[a + segment[a:b].index(str(option)) : b]
            segment_i = segment_i.replace(words, " " * len(words))
            context_i = context_i.replace(words, " " * len(words))
        out.append((segment_i, context_i))
    return out


def fill_arguments(spec: dict[str, Any], ctx: FillContext) -> FillOutcome:
    """Fill ``spec``'s arguments from ``ctx`` (see the module docstring)."""
    return _Filler(spec, ctx).fill()


def evidence(spec: dict[str, Any], text: str) -> int:
    """How many parameters of ``spec`` have a value visibly present in ``text`` (ids, cities, names,
    currencies).
    """
    text = normalize(text)
    count = 0
    for param in params_of(spec):
        kind = classify(param)
        if kind == "pattern":
            found = any(regex.search(text) for regex in patterns_of(param))
        elif kind == "city":
            found = bool(find_cities(text, False))
        elif kind == "person":
            found = any(e in text for e in examples_of(param)) or bool(find_people(text))
        elif kind == "currency":
            found = bool(find_currencies(text))
        else:
            found = False
        count += int(found)
    return count


def enum_evidence(spec: dict[str, Any], text: str) -> int:
    """See ``_enum_evidence`` (cached: tool choice asks this for every tool and every part of every
    request).
    """
    parameters = json.dumps(
        spec.get("parameters") or {}, sort_keys=True, ensure_ascii=False, default=str
    )
    return _enum_evidence(parameters, normalize(text))


@lru_cache(maxsize=4096)
def _enum_evidence(parameters_json: str, text: str) -> int:
    """How many enum parameters of ``spec`` have a value named in ``text`` by a word of its own
    family (华氏度 for ``"F"``, miles for ``"mi"``) or spelled out (three letters or more): the
    schema lists exactly these values, so naming them is a sign the tool is meant. Yes/no and
    today/tomorrow enums do not count.
    """
    count = 0
    for param in params_of({"parameters": json.loads(parameters_json)}):
        if not param.enum or yes_no_enum(param) or enum_family(param.enum) == "day":
            continue  # 是/今天/现在 are in half the requests: they point at no tool in particular
        for value, (start, stop) in find_enum(param, text):
            word = text[start:stop]
            if (
                len(word) >= 3
                or re.search(f"[{CJK_RANGE}]", word)
                and len(word) >= 2
                or word.lower() != str(value).lower()
            ):
                count += 1
                break
    return count


def best_effort_arguments(spec: dict[str, Any], ctx: FillContext) -> dict[str, Any]:
    """Arguments for a call the caller forced (``tool_choice``): what can be filled, the rest from
    examples/enums.
    """
    outcome = fill_arguments(spec, ctx)
    arguments = dict(outcome.arguments[0])
    for param in outcome.missing:
        if param.enum:
            arguments[param.name] = param.enum[0]
        elif first_example(param) is not None and param.type == "string":
            arguments[param.name] = first_example(param)
        else:
            arguments[param.name] = {
                "integer": 0,
                "number": 0,
                "boolean": False,
                "array": [],
                "object": {},
            }.get(param.type, "")
    return arguments
