"""Arithmetic in words rebuilt as an expression a calculator tool accepts, and numbers read from
results.

``extract_expression("17 乘以 9 等于多少")`` → ``"17 * 9"``. Operator words (乘以, 除以, 加, 减,
的 N 次方, 平方, 平方根, times, divided by …) become symbols, Chinese numerals become digits, and
the longest run of numbers, operators and parentheses is kept. An operator with nothing on one
side ("再乘以 2") is completed with ``PREV``, the place where an earlier tool result's number goes;
``number_from_result`` finds that number (a ``rate``/``result``/``value`` field, or the number after
"=" / "为" in plain text).

The expression is text for a tool: nothing here evaluates it. Left out: variables, units, and
functions other than sqrt/abs/round.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .text import find_numbers, format_number, normalize

PREV = "{prev}"  # where a number from an earlier tool result goes in an expression template

_WORD_OPERATORS: tuple[tuple[str, str], ...] = (
    (r"的\s*平方根|平方根", " sqrt "),
    (r"square root of", " sqrt "),
    (r"根号", " sqrt "),
    (r"的\s*(\d+(?:\.\d+)?|[一二两三四五六七八九十]+)\s*次(?:方|幂)", r" ** \1 "),
    (r"的\s*平方|平方", " ** 2 "),
    (r"的\s*立方|立方", " ** 3 "),
    (r"\bto the power of\b|\braised to\b", " ** "),
    (r"\bsquared\b", " ** 2 "),
    (r"\bcubed\b", " ** 3 "),
    (r"整除", " // "),
    (r"乘以|乘上|乘|×|✕|✖|\btimes\b|\bmultiplied by\b|(?<=\d)\s*[xX]\s*(?=\d)", " * "),
    (r"除以|除(?![了非去])|÷|\bdivided by\b|\bover\b", " / "),
    (r"加上|加|\bplus\b", " + "),
    (r"减去|减|\bminus\b", " - "),
    (r"取余|取模|\bmod\b|\bmodulo\b", " % "),
    (r"\^", " ** "),
)

_MATH_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<op>\*\*|//|[-+*/%])|(?P<lp>\()|(?P<rp>\)"
    r")|(?P<fn>sqrt|abs|round)\b)"
)


@dataclass(frozen=True)
class Expression:
    text: str  # may contain PREV where an earlier result's number belongs
    lone_number: bool = False
    dangling: bool = False  # an operator with nothing on one side ("再乘以 2")


def _to_digits(text: str) -> str:
    """Replace Chinese numerals (and 3.5万 style numbers) with plain digits."""
    out = text
    for number in reversed(find_numbers(text)):
        out = out[: number.start] + format_number(number.value) + out[number.end :]
    return out


def extract_expression(text: str, *, has_previous: bool = False) -> Expression | None:
    """Rebuild the arithmetic the user wrote in words: "17 乘以 9" → "17 * 9"; ``None`` when there
    is none.
    """
    work = normalize(text).replace("（", "(").replace("）", ")")
    work = _to_digits(work)
    work = re.sub(
        r"(\d+(?:\.\d+)?)\s*的\s*百分之\s*(\d+(?:\.\d+)?)", r"\1 * \2 / 100", work
    )  # 200 的百分之十五
    work = re.sub(r"百分之\s*(\d+(?:\.\d+)?)", r"(\1 / 100)", work)  # 百分之八 → (8 / 100)
    work = (
        re.sub(r"(?<=\d)\s*%", " / 100 ", work)
        if re.search(r"的\s*\d+(?:\.\d+)?\s*%", work)
        else work
    )
    work = re.sub(r"的\s*(\d+(?:\.\d+)?)\s*/\s*100", r" * \1 / 100", work)
    work = re.sub(r"(\d+(?:\.\d+)?)\s*%\s*of\s*(\d+(?:\.\d+)?)", r"\2 * \1 / 100", work, flags=re.I)
    for pattern, replacement in _WORD_OPERATORS:
        work = re.sub(pattern, replacement, work, flags=re.I)
    runs: list[list[tuple[str, str]]] = [[]]
    position = 0
    while position < len(work):
        match = _MATH_TOKEN.match(work, position)
        if match:
            kind = match.lastgroup or ""
            runs[-1].append((kind, match.group(kind)))
            position = match.end()
        else:
            if runs[-1]:
                runs.append([])
            position += 1
    best: list[tuple[str, str]] = []
    for run in runs:
        run = _trim_run(run)
        if not any(kind == "num" for kind, _ in run):
            continue
        weight = sum(1 for kind, _ in run if kind in ("num", "op", "fn"))
        if weight > sum(1 for kind, _ in best if kind in ("num", "op", "fn")):
            best = run
    if not best:
        # no number at all, but an operator ("再乘以 2" always has one; "它的平方" has none left)
        return None
    tokens = list(best)
    dangling = False
    if tokens[0][0] == "op" and (has_previous or tokens[0][1] != "-"):
        tokens.insert(0, ("prev", PREV))
        dangling = True
    if tokens[-1][0] == "op":
        tokens.append(("prev", PREV))
        dangling = True
    lone = len(tokens) == 1 and tokens[0][0] == "num"
    return Expression(text=_render(tokens), lone_number=lone, dangling=dangling)


def _trim_run(run: list[tuple[str, str]]) -> list[tuple[str, str]]:
    # "sqrt 16" (from 根号16) and "16 sqrt" (from 16的平方根) both become "sqrt(16)"
    fixed: list[tuple[str, str]] = []
    index = 0
    while index < len(run):
        kind, value = run[index]
        if kind == "fn" and index + 1 < len(run) and run[index + 1][0] == "num":
            fixed += [("fn", value), ("lp", "("), run[index + 1], ("rp", ")")]
            index += 2
            continue
        if (
            kind == "num"
            and index + 1 < len(run)
            and run[index + 1] == ("fn", "sqrt")
            and (index + 2 >= len(run) or run[index + 2][0] != "lp")
        ):
            fixed += [("fn", "sqrt"), ("lp", "("), (kind, value), ("rp", ")")]
            index += 2
            continue
        fixed.append((kind, value))
        index += 1
    run = fixed
    while run and run[0][0] == "rp":
        run.pop(0)
    while run and run[-1][0] in ("lp", "fn"):
        run.pop()
    depth = 0
    balanced: list[tuple[str, str]] = []
    for kind, value in run:
        if kind == "rp":
            if depth == 0:
                continue
            depth -= 1
        elif kind == "lp":
            depth += 1
        balanced.append((kind, value))
    balanced.extend([("rp", ")")] * depth)
    return balanced


def _render(tokens: list[tuple[str, str]]) -> str:
    out = ""
    previous = ""
    for kind, value in tokens:
        if kind == "op":
            unary = value == "-" and previous in ("", "op", "lp")
            out += value if unary else f" {value} "
        else:
            out += value
        previous = (
            kind if not (kind == "op" and value == "-" and previous in ("", "op", "lp")) else "lp"
        )
    return re.sub(r"\s+", " ", out).strip()


def number_from_result(raw: str) -> float | None:
    """The number a tool result is about: a ``rate``/``result``/``value`` field, or the number after
    "=" / "为".
    """
    try:
        value: Any = json.loads(raw)
    except (TypeError, ValueError):
        value = None
    if isinstance(value, dict) and "data" in value and ("success" in value or "error" in value):
        value = value.get("data")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        raw, value = value, None
    if isinstance(value, dict):
        for key_pattern in (
            "rate",
            "汇率",
            "result",
            "结果",
            "value",
            "answer",
            "price",
            "amount",
            "total",
        ):
            for key, item in value.items():
                if (
                    key_pattern in str(key).lower()
                    and isinstance(item, (int, float))
                    and not isinstance(item, bool)
                ):
                    return float(item)
        for item in value.values():
            if isinstance(item, (int, float)) and not isinstance(item, bool):
                return float(item)
        for item in value.values():  # {"summary": "1 EUR = 7.8 CNY"}: the number a sentence states
            if isinstance(item, str) and re.search(r"=|为|\bis\b", item):
                found = number_from_result(item)
                if found is not None:
                    return found
        return None
    if isinstance(value, list):
        return None
    text = re.sub(
        r"\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?|\d{1,2}:\d{2}(?::\d{2})?",
        " ",
        normalize(raw or ""),
    )
    match = re.search(r"(?:=|为|是|:|\bis\b|\bare\b)\s*(-?\d+(?:\.\d+)?)", text)
    if match:
        return float(match.group(1))
    numbers = re.findall(r"-?\d+(?:\.\d+)?", text)
    return float(numbers[-1]) if numbers else None
