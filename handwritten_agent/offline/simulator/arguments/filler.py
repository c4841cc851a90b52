"""Filling one tool's arguments from one request: the rules of the other modules, applied in order.

Left out: anything the request, the intent's context and the earlier results of this turn do not say.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ..dates import find_dates, find_times
from ..expressions import PREV, extract_expression
from ..lexicon import CURRENCIES
from ..text import CJK_RANGE, find_numbers, format_number, normalize
from .entities import Span, find_cities, find_currencies, find_enum, find_pattern, find_people
from .freetext import free_text
from .numbers import boolean_value, pick_number
from .params import (DEPENDENT_WORDS, FillContext, FillOutcome, Param, all_patterns, classify, examples_of, first_example,
                     params_of, patterns_of, wants_upper)
from .roles import role_of
from .when import date_format


def blank(text: str, spans: list[Span]) -> str:
    chars = list(text)
    for start, stop in spans:
        for index in range(max(0, start), min(len(chars), stop)):
            chars[index] = " "
    return "".join(chars)


class _Filler:
    """Fills one tool's arguments from one ``FillContext``; one method per kind of parameter."""

    def __init__(self, spec: dict[str, Any], ctx: FillContext):
        self.ctx = ctx
        self.params = params_of(spec)
        self.kinds = {p.name: classify(p) for p in self.params}
        self.segment = normalize(ctx.segment)
        self.context = normalize(ctx.context)
        # Where to look, nearest first: the intent's words, the request minus other intents, the whole
        # request, then earlier results (only for ids and names).
        self.sources = [self.segment, self.context, normalize(ctx.request)] + [normalize(t) for t in ctx.previous_texts]
        self.english = not re.search(f"[{CJK_RANGE}]", self.segment + self.context)
        self.values: dict[str, Any] = {}
        self.used_spans: list[Span] = []  # parts of the segment already taken (ids, dates …): numbers skip them
        self.fanout: tuple[str, list[Any]] | None = None
        self.needs_previous = False

    def take(self, found_by_source: list[list[tuple[Any, Span]]]) -> list[Any]:
        """The values of the first source that has any (spans in the segment are marked as used)."""
        for index, found in enumerate(found_by_source):
            if found:
                if index == 0:
                    self.used_spans.extend(span for _, span in found)
                return [value for value, _ in found]
        return []

    def of_kind(self, *kinds: str) -> list[Param]:
        return [p for p in self.params if self.kinds[p.name] in kinds and p.name not in self.values]

    def fill(self) -> FillOutcome:
        self.currencies()
        self.datetimes()
        for param in self.of_kind("enum", "pattern", "city", "person", "literal"):
            self.entity(param)
        numbers = find_numbers(blank(self.segment, self.used_spans))
        taken: set[int] = set()
        for param in self.of_kind("expression", "number", "boolean", "text", "array"):
            kind = self.kinds[param.name]
            if kind == "expression":
                value = self.expression()
            elif kind == "number":
                value = pick_number(param, blank(self.segment, self.used_spans), numbers, taken)
                if value is None and param.required:
                    value = self.number_nearby(param)
            elif kind == "boolean":
                value = boolean_value(param, self.segment)
            elif kind == "text":
                value = free_text(self.ctx.segment) or None
            else:
                value = self.array(param)
            if value is not None:
                self.values[param.name] = value
        missing: list[Param] = []
        for param in self.params:
            if param.name in self.values:
                continue
            if param.has_default:
                self.values[param.name] = param.schema["default"]
            elif param.required:
                if self.ctx.has_previous and not self.ctx.previous_ready:
                    self.needs_previous = True  # an earlier result may still provide it
                else:
                    missing.append(param)
        ordered = {p.name: self.values[p.name] for p in self.params if p.name in self.values}
        arguments = [ordered]
        if self.fanout:
            name, options = self.fanout
            arguments = [{**ordered, name: option} for option in options]
        return FillOutcome(arguments=arguments, missing=missing, needs_previous=self.needs_previous)

    def currencies(self) -> None:
        """Currency parameters share one list of mentions: the first goes to the from/source role."""
        params = self.of_kind("currency")
        if not params:
            return
        mentions = self.take([find_currencies(s) for s in self.sources[:3]])
        ordered = sorted(params, key=lambda p: role_of(p) if role_of(p) >= 0 else 0.5)
        for param, code in zip(ordered, mentions):
            chinese_style = any(re.search(f"[{CJK_RANGE}]", e) for e in examples_of(param))
            self.values[param.name] = CURRENCIES[code][0] if chinese_style else code

    def datetimes(self) -> None:
        """Dates and times, formatted as each parameter asks; a start/end pair takes the first/second mention."""
        params = self.of_kind("datetime")
        if not params:
            return
        today = self.ctx.now.date()
        dates = next((found for found in (find_dates(s, today) for s in self.sources[:3]) if found), [])
        times = next((found for found in (find_times(s) for s in self.sources[:3]) if found), [])
        self.used_spans.extend(span for _, span in find_dates(self.segment, today))
        self.used_spans.extend(span for _, span in find_times(self.segment))
        for param in params:
            index = max(role_of(param), 0)
            fmt = date_format(param)
            day = dates[min(index, len(dates) - 1)][0] if dates else None
            clock = times[index][0] if len(times) > index else None
            if "%H" in fmt and clock is None:
                continue  # the format needs a time of day nobody gave
            if "%d" in fmt and day is None:
                if clock is None:
                    continue
                day = today  # "3点" alone means today
            moment = datetime.combine(day or today, datetime.min.time())
            if clock:
                moment = moment.replace(hour=clock[0], minute=clock[1])
            self.values[param.name] = moment.strftime(fmt)

    def entity(self, param: Param) -> None:
        """Enum values, ids matching a pattern, cities, people's names, literal examples."""
        kind = self.kinds[param.name]
        found: list[Any] = []
        if kind == "enum":
            found = self.take([find_enum(param, s) for s in self.sources[:3]])
        elif kind == "pattern":
            upper = wants_upper(param)
            for regex in patterns_of(param):
                found = self.take([find_pattern(regex, s, upper) for s in self.sources])
                if found:
                    break
        elif kind == "city":
            examples = examples_of(param)
            english = all(e.isascii() for e in examples) if examples else self.english
            found = self.take([find_cities(s, english) for s in self.sources[:3]])
        elif kind == "person":
            literal = [(e, (self.segment.find(e), self.segment.find(e) + len(e))) for e in examples_of(param) if e in self.segment]
            found = self.take([literal] + [find_people(s) for s in self.sources[:2] + self.sources[3:]])
        else:
            found = self.take([[(e, (s.find(e), s.find(e) + len(e))) for e in examples_of(param) if e in s] for s in self.sources[:3]])
        if not found:
            return
        if len(found) > 1 and self.fanout is None and kind in ("pattern", "city", "person"):
            self.fanout = (param.name, found)  # "北京和上海" → one call per city
        self.values[param.name] = found[0]

    def number_nearby(self, param: Param) -> int | float | None:
        """A number with the parameter's unit elsewhere in the request ("…会议室，8个人")."""
        today = self.ctx.now.date()
        spans = [span for _, span in find_dates(self.context, today)] + [span for _, span in find_times(self.context)]
        masked = blank(self.context, spans + [m.span() for regex in all_patterns(self.params) for m in regex.finditer(self.context)])
        return pick_number(param, masked, find_numbers(masked), set(), unit_only=True)

    def expression(self) -> str | None:
        """A math expression; one that needs an earlier result waits for it (or fails without one)."""
        found = extract_expression(blank(self.segment, self.used_spans), has_previous=self.ctx.has_previous)
        if found is None:
            return None
        text = found.text
        if found.lone_number and self.ctx.has_previous and DEPENDENT_WORDS.search(self.segment):
            text = f"{text} * {PREV}"  # "计算 100 美元能换多少人民币" after a rate lookup: 100 * rate
        if PREV in text:
            if self.ctx.previous_number is None:
                self.needs_previous = self.needs_previous or self.ctx.has_previous
                return None
            text = text.replace(PREV, format_number(self.ctx.previous_number))
        return text

    def array(self, param: Param) -> list[Any] | None:
        """Arrays of enum values, ids or cities: every one mentioned."""
        items = param.schema.get("items") or {}
        item = Param(param.name, {**items, "description": items.get("description") or param.description}, False)
        kind = classify(item)
        if kind == "enum":
            found = find_enum(item, self.segment) or find_enum(item, self.context)
        elif kind == "pattern":
            found = [hit for regex in patterns_of(item) for hit in find_pattern(regex, self.context, wants_upper(item))]
        elif kind == "city":
            found = find_cities(self.context, self.english)
        else:
            found = []
        return [value for value, _ in found] or None


def fill_arguments(spec: dict[str, Any], ctx: FillContext) -> FillOutcome:
    """Fill ``spec``'s arguments from ``ctx`` (see the module docstring)."""
    return _Filler(spec, ctx).fill()


def evidence(spec: dict[str, Any], text: str) -> int:
    """How many parameters of ``spec`` have a value visibly present in ``text`` (ids, cities, names, currencies)."""
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


def best_effort_arguments(spec: dict[str, Any], ctx: FillContext) -> dict[str, Any]:
    """Arguments for a call the caller forced (``tool_choice``): what can be filled, the rest from examples/enums."""
    outcome = fill_arguments(spec, ctx)
    arguments = dict(outcome.arguments[0])
    for param in outcome.missing:
        if param.enum:
            arguments[param.name] = param.enum[0]
        elif first_example(param) is not None and param.type == "string":
            arguments[param.name] = first_example(param)
        else:
            arguments[param.name] = {"integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}.get(param.type, "")
    return arguments
