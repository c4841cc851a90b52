"""Find measured figures stated in a notebook's prose that none of its outputs shows.

A notebook's Markdown may say "测得中位数 0.54 秒" only if a cell printed it (or formatted it into
Markdown from code: that Markdown is an output too). Otherwise the sentence goes stale the day the
code changes.

The rule, sentence by sentence (a sentence ends at 。！？；, a table cell or a list item; lines
wrapped inside a paragraph are joined first):

- a **figure** is a number with a unit of measure: ms/毫秒/秒/s/分钟, %, 倍/×,
  token(s)/tokens/s/token/秒,元/美元, KB/MB/GB, 次/秒;
- every figure must be **shown**: its number (as written, or without thousands separators) appears
  in some output of the same notebook — or, for a figure whose sentence does not say it was
  measured, in the notebook's code (a setting such as ``max_seconds=0.5`` may be quoted in prose);
- a sentence **says it was measured** when it has one of: 测得/实测/测量/中位数/平均/p50/p95/p99/耗
  时/延迟/速度/快/慢/吞吐/占/命中率/通过率/成功率/pass^/花费/费用/节省/减少/降低/提升/增加/约/大约/
  左右/开发机/机器上.

Numbers that are part of a code span (`...`) are not prose. Left out: figures in pictures (SVG) and
figures in the README (the README's speed table is checked by ``make bench``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

UNIT = (
    r"(?:毫秒|ms|秒|s\b|分钟|%|％|倍|×|x\b|tokens?/s|token/秒|个?\s*tokens?|个\s*token"
    r"|元|美元|KB|MB|GB|次/秒)"
)
NUMBER = r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?"
FIGURE = re.compile(NUMBER + r"\s*" + UNIT, re.I)
CUES = re.compile(
    r"测得|实测|测量|测出|中位数|平均|p50|p95|p99|耗时|延迟|速度|快|慢|吞吐|占|命中率|通过率|成功率"
    r"|pass\^|"
    r"花费|费用|节省|减少|降低|提升|增加|约|大约|左右|开发机|机器上",
    re.I,
)
SENTENCE = re.compile(r"[^。！？;；|\n]+[。！？;；]?")
BLOCK_START = re.compile(r"^\s*(?:[-*+>|#]|\d+[.)]\s)")
CODE_SPAN = re.compile(r"`[^`]*`|```.*?```", re.S)


@dataclass(frozen=True)
class StaleFigure:
    cell: int
    figure: str
    sentence: str

    def __str__(self) -> str:
        return (
            f"第 {self.cell} 格说“{self.figure}”，但没有任何输出显示"
            f" {self.figure!r}：{self.sentence.strip()[:120]}"
        )


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def outputs_text(notebook: dict[str, Any]) -> str:
    """Everything the notebook's code cells showed: streams, text/plain, text/markdown,
    text/html.
    """
    parts = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            parts.append(_text(output.get("text")))
            for kind in ("text/plain", "text/markdown", "text/html"):
                parts.append(_text(output.get("data", {}).get(kind)))
    return "\n".join(parts)


def _shown(number: str, shown: str) -> bool:
    plain = number.replace(",", "")
    return bool(
        re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", shown)
        or re.search(rf"(?<![\d.]){re.escape(plain)}(?![\d])", shown.replace(",", ""))
    )


def _unwrap(prose: str) -> str:
    """Join the lines of a paragraph that were only wrapped; keep the breaks before lists, tables
    and headings.
    """
    lines = prose.split("\n")
    out = lines[:1]
    for line in lines[1:]:
        if (
            line.strip()
            and out[-1].strip()
            and not BLOCK_START.match(line)
            and not BLOCK_START.match(out[-1])
        ):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return "\n".join(out)


def stale_figures(notebook: dict[str, Any], checked: Iterable[str] = ()) -> list[StaleFigure]:
    """Figures in Markdown cells that no output (nor, when not measured, the code) of ``notebook``
    shows. ``checked``: sentences another test holds to their source, word for word (a day's
    stated time, which ``tests/test_reading_time.py`` computes from the notebook); their figures
    are not looked for in the outputs.
    """
    checked = [sentence for sentence in checked if sentence]
    shown = outputs_text(notebook)
    code = "\n".join(
        _text(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"
    )
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        text = _text(cell["source"])
        for sentence in checked:
            text = text.replace(sentence, " ")
        prose = _unwrap(CODE_SPAN.sub(" ", text))
        for sentence in SENTENCE.findall(prose):
            measured = bool(CUES.search(sentence))
            for match in FIGURE.finditer(sentence):
                number = match.group(1) + (f".{match.group(2)}" if match.group(2) else "")
                if not _shown(number, shown) and (measured or not _shown(number, code)):
                    found.append(StaleFigure(index, match.group(0).strip(), sentence))
    return found


def stale_figures_in(path: str | Path) -> list[StaleFigure]:
    return stale_figures(json.loads(Path(path).read_text(encoding="utf-8")))


__all__ = ["StaleFigure", "outputs_text", "stale_figures", "stale_figures_in"]


# --- Claims in words: how often, what share, how many lines, how many steps, what price --------
#
# The figures above have units. These claims are words ("差不多每一轮", "三次里有一次",
# "这三十几行", "分两步") or prices; each is read into a range and compared with the output
# figure it is about:
#
# - **frequency and ratio** ("每一轮都/几乎每轮/大多数/一半/很少/三次里有一次/三分之一"):
#   the figure is a count shown as "a/b" (or "b 轮里有 a 轮", "a 次（b 轮里）") on an output
#   line. Which line: the one sharing the most rare Chinese word pairs with the claim's clause,
#   with a bonus for the code cells right before and after the prose, and counting the same
#   thing (轮/次/个) when the claim names it; a line that shares too little is not about the
#   claim. A claim about failures ("走偏/失败") read against a count of passes ("通过/成功")
#   is turned round (26/30 passed: 4/30 went wrong).
# - **line counts** ("这三十几行", "二十行就能用了", "不到五十行"; ten or more): the code the
#   prose points at is a code cell of its section or the section's code before or after it
#   taken together (see ``wrong_line_counts``).
# - **step counts** ("分两步", "走了三步"): the steps an output shows as "第 N 步", in the next code
#   cell's output (else the previous one's).
# - **prices**: a per-million-token price stated for a model of the course's one price table
#   (``handwritten_agent.pricing``), in prose or in any output, must be one of that model's prices
#   there; so two notebooks cannot disagree.
#
# Sentences that only say what might happen (可能/如果/假如/也许) are not claims about an output.

CJK_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7}
CJK_DIGITS |= {"八": 8, "九": 9}
NUMERAL = r"(?:\d+|[零一二两三四五六七八九十百]+)"
HEDGE = re.compile(r"可能|如果|假如|也许|要是|比如|例如")
NEGATIVE = re.compile(r"走偏|失败|出错|没通过|不通过|错了|读错|不对|漏")
POSITIVE = re.compile(r"通过|成功|正确|答对|全对")


def cjk_number(text: str) -> int | None:
    """``"30"``, ``"三十"``, ``"一百零六"``, ``"两"`` as an int; None when it is not a numeral."""
    if text.isdigit():
        return int(text)
    total, digit = 0, 0
    for char in text:
        if char in CJK_DIGITS:
            digit = CJK_DIGITS[char]
        elif char in "十百":
            total += (digit or 1) * (10 if char == "十" else 100)
            digit = 0
        else:
            return None
    return total + digit


def amount(numeral: str, suffix: str = "") -> tuple[float, float] | None:
    """The range a spoken amount means: 三十几 → 30–39, 十几 → 11–19, 几十 → 20–99,
    一百来 → 90–110, 三十多 → 31–39, 30 → 30.
    """
    pair = re.fullmatch(r"([一二两三四五六七八九])([二三四五六七八九])十", numeral)
    if pair:
        return (CJK_DIGITS[pair.group(1)] * 10, CJK_DIGITS[pair.group(2)] * 10)
    if numeral == "几十":
        return (20, 99)
    if numeral == "十几":
        return (11, 19)
    value = cjk_number(numeral)
    if value is None:
        return None
    step = (
        100 if value >= 100 and value % 100 == 0 else 10 if value >= 10 and value % 10 == 0 else 1
    )
    if suffix in ("几", "多"):
        return (value, value + step - 1) if step > 1 else (value, value + 0.99)
    if suffix == "来" or (value >= 10 and value % 10 == 0):
        return (value * 0.8, value * 1.2)  # 一百来行, 二十行: about that many
    return (value, value)


@dataclass(frozen=True)
class WrongClaim:
    """A claim in words that the output it is about contradicts."""

    cell: int
    kind: str
    claim: str
    shown: str
    sentence: str

    def __str__(self) -> str:
        return (
            f"第 {self.cell} 格的{self.kind}“{self.claim}”和输出对不上（输出：{self.shown}）："
            f"{self.sentence.strip()[:120]}"
        )


FREQUENCY = [  # (pattern, low, high): the share of the count the words claim
    (r"(?:几乎|差不多|基本上)(?:每一?|次次|轮轮|都|总)", 0.85, 1.0),
    (r"每一?[轮次回个][都也]|次次|轮轮|总是|从来都", 0.95, 1.0),
    (r"大多数|大部分|多数", 0.55, 1.0),
    (r"一半", 0.4, 0.6),
    (r"很少|极少|偶尔|少数|个别", 0.0, 0.25),
]
RATIO = re.compile(
    rf"(?P<whole>{NUMERAL})\s*[次个轮回](?:里|中|当中)?(?:面)?(?:就|只)?有\s*(?P<part>{NUMERAL})\s*[次个轮回]"
    rf"|(?P<whole2>{NUMERAL})分之(?P<part2>{NUMERAL})"
)
FRACTION_LINE = re.compile(
    r"(?<![\w/.-])(?P<a>\d+)\s*/\s*(?P<b>\d+)(?![\w/.-])"
    r"|(?P<b2>\d+)\s*(?P<u2>[轮次个])里[，,]?\s*有\s*(?P<a2>\d+)\s*(?P=u2)"
    r"|(?P<a3>\d+)\s*(?P<u3>[轮次个])\s*[（(]\s*(?P<b3>\d+)\s*(?P=u3)里"
)  # "13 次（20 轮里）" counts one thing against another: not a share
BIGRAM = re.compile(r"(?=([\u4e00-\u9fff]{2}))")
FUNCTION_CHARS = set("的了都也每次轮个是在有和就还一这那几问会")
"""Characters of grammar and counting: a word pair with one of them says nothing about a subject."""


def _pairs(text: str) -> set[str]:
    return {pair for pair in BIGRAM.findall(text) if not FUNCTION_CHARS & set(pair)}


def _share_claims(sentence: str) -> list[tuple[str, float, float]]:
    """The frequency/ratio words of a sentence, each with the share it claims."""
    claims = []
    for pattern, low, high in FREQUENCY:
        for match in re.finditer(pattern, sentence):
            claims.append((match.group(0), low, high))
            break
        if claims:
            break
    for match in RATIO.finditer(sentence):
        whole = cjk_number(match.group("whole") or match.group("whole2"))
        part = cjk_number(match.group("part") or match.group("part2"))
        if whole and part is not None and part <= whole:
            share = part / whole
            claims.append((match.group(0), share * 0.5, min(1.0, share * 1.5)))
    return claims


def _code_cells_near(cells: list[dict[str, Any]], index: int) -> tuple[int | None, int | None]:
    before = next((i for i in range(index - 1, -1, -1) if cells[i]["cell_type"] == "code"), None)
    after = next((i for i in range(index + 1, len(cells)) if cells[i]["cell_type"] == "code"), None)
    return before, after


def _cell_outputs(cell: dict[str, Any]) -> str:
    return outputs_text({"cells": [cell]})


def _sentences(notebook: dict[str, Any]):
    """(cell index, sentence) for the prose of every Markdown cell, hedges left out."""
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        prose = _unwrap(CODE_SPAN.sub(" ", _text(cell["source"]))).replace("**", "")
        for sentence in SENTENCE.findall(prose):
            if not HEDGE.search(sentence):
                yield index, sentence


SAMENESS = re.compile(r"\s*[轮次个回]?[都也]?不?(?:一样|相同|不同|同|在变|变)")
CHANCE = re.compile(r"机会|概率|多大|多少")
CLAUSE = re.compile(r"[^，,：:；;—（）()“”]+")
UNIT_AFTER = re.compile(r"\s*([轮次个])")


def _clause(sentence: str, at: int) -> str:
    """The part of ``sentence`` between the punctuation around position ``at``."""
    for match in CLAUSE.finditer(sentence):
        if match.start() <= at < match.end():
            return match.group(0)
    return sentence


def wrong_shares(notebook: dict[str, Any]) -> list[WrongClaim]:
    """Frequency words and ratios in the prose that the count they are about contradicts."""
    cells = notebook["cells"]
    lines = []  # (cell index, line, a, b, unit, the text after the count)
    for index, cell in enumerate(cells):
        for line in _cell_outputs(cell).splitlines() if cell["cell_type"] == "code" else []:
            for match in FRACTION_LINE.finditer(line):
                a = int(match.group("a") or match.group("a2") or match.group("a3"))
                b = int(match.group("b") or match.group("b2") or match.group("b3"))
                after_unit = UNIT_AFTER.match(line, match.end())
                unit = re.sub(r"[^轮次个]", "", match.group(0))[-1:] or (
                    after_unit.group(1) if after_unit else ""
                )
                if 0 < b and a <= b:
                    after = line[match.end() : match.end() + 12]
                    lines.append((index, line.strip(), a, b, unit, after))
    seen: dict[str, int] = {}
    for line in {item[1] for item in lines}:
        for pair in _pairs(line):
            seen[pair] = seen.get(pair, 0) + 1
    found = []
    for index, sentence in _sentences(notebook):
        claims = _share_claims(sentence)
        if any(RATIO.search(words) for words, _, _ in claims):
            claims = [claim for claim in claims if RATIO.search(claim[0])]
        near = set(_code_cells_near(cells, index))
        for words, low, high in claims:
            at = sentence.index(words)
            whole = _clause(sentence, at)
            before, _, after_words = whole.partition(words)
            # what happens that often: the words after the quantifier ("每一轮都|要重写摘要"),
            # or before it when nothing follows ("只能回答|一半")
            clause = after_words if _pairs(after_words) else before
            if SAMENESS.match(sentence, at + len(words)) or CHANCE.search(whole):
                continue  # "每次都不一样", "次次都通过的机会": not a share of a count
            unit = re.search(r"[轮次个]", words + sentence[at + len(words) : at + len(words) + 1])
            negative = bool(NEGATIVE.search(clause))
            best = None
            for cell, line, a, b, line_unit, after in lines:
                if unit and line_unit and unit.group(0) != line_unit:
                    continue
                rare = {pair for pair in _pairs(clause) & _pairs(line) if seen.get(pair, 0) <= 3}
                turned = negative and bool(POSITIVE.search(after)) and not NEGATIVE.search(after)
                score = (
                    len(rare)
                    + (cell in near)
                    + 2 * (negative and (turned or bool(NEGATIVE.search(after))))
                )
                enough = score >= 2 or (
                    score >= 1 and unit is not None and line_unit == unit.group(0)
                )
                if enough and (best is None or score > best[0]):
                    best = (score, line, a, b, turned)
            if best is None:
                continue
            _, line, a, b, turned = best
            share = 1 - a / b if turned else a / b
            if not low - 1e-9 <= share <= high + 1e-9:
                found.append(WrongClaim(index, "频率/比例", words, line[:160], sentence))
    return found


LINES_CLAIM = re.compile(
    rf"(?P<under>不到|不超过|不足)?\s*(?P<n>{NUMERAL}|几十|十几)\s*(?P<suffix>[几多来])?\s*行(?!为|动|李|政|业)"
)


def _code_lines(cell: dict[str, Any]) -> int:
    return sum(1 for line in _text(cell["source"]).splitlines() if line.strip())


def _is_heading(cell: dict[str, Any], deepest: int = 6) -> bool:
    """A Markdown cell with a heading of level ``deepest`` or higher (## 4 for 2, ### 4.3 not)."""
    return cell["cell_type"] == "markdown" and bool(
        re.search(rf"^\s*#{{1,{deepest}}}\s", _text(cell["source"]), re.M)
    )


def wrong_line_counts(notebook: dict[str, Any]) -> list[WrongClaim]:
    """ "这三十几行" where the code the prose points at has a different number of lines: a code
    cell of the prose's section (from the last heading before it to the next one; a cell that opens
    a subsection looks back from the last ``#``/``##`` heading), or the code of that section
    before or after the prose taken together.

    Only counts of ten lines or more are read: "一行/最后两行" name a place, not a size.
    """
    cells = notebook["cells"]
    found = []
    for index, sentence in _sentences(notebook):
        for match in LINES_CLAIM.finditer(sentence):
            span = amount(match.group("n"), match.group("suffix") or "")
            if (
                span is None
                or span[0] < 10
                or sentence[max(0, match.start() - 1) : match.start()] == "第"
            ):
                continue
            low, high = (span[1] * 0.5, span[1]) if match.group("under") else span
            # a cell that opens a subsection (### 4.3) looks back over its parent section (## 4)
            deepest = 2 if _is_heading(cells[index]) else 6
            start = next((i for i in range(index - 1, -1, -1) if _is_heading(cells[i], deepest)), 0)
            end = next(
                (i for i in range(index + 1, len(cells)) if _is_heading(cells[i])), len(cells)
            )
            if not any(c["cell_type"] == "code" for c in cells[:index]):
                start, end = index, len(cells)  # an overview: the code it names comes later
            counts = [_code_lines(c) for c in cells[start:end] if c["cell_type"] == "code"]
            for part in (cells[start:index], cells[index:end]):
                counts.append(sum(_code_lines(c) for c in part if c["cell_type"] == "code"))
            if not any(low * 0.9 <= count <= high * 1.1 + 1 for count in counts):
                shown = "、".join(f"{count} 行" for count in counts)
                found.append(WrongClaim(index, "行数", match.group(0).strip(), shown, sentence))
    return found


STEPS_CLAIM = re.compile(
    rf"(?:分|走了?|用了?|花了?|经过|一共|共|只要|需要|要)\s*(?P<n>{NUMERAL})\s*步(?!排查|清单|链路)"
)
STEP_SHOWN = re.compile(r"第\s*(\d+)\s*步")


def wrong_step_counts(notebook: dict[str, Any]) -> list[WrongClaim]:
    """ "分两步" where the run the prose is about shows another number of steps."""
    cells = notebook["cells"]
    found = []
    for index, sentence in _sentences(notebook):
        for match in STEPS_CLAIM.finditer(sentence):
            claimed = cjk_number(match.group("n"))
            before, after = _code_cells_near(cells, index)
            for near in (after, before):
                steps = (
                    [int(n) for n in STEP_SHOWN.findall(_cell_outputs(cells[near]))]
                    if (near is not None)
                    else []
                )
                if steps:
                    if max(steps) != claimed:
                        shown = f"最后一步是第 {max(steps)} 步"
                        found.append(WrongClaim(index, "步数", match.group(0), shown, sentence))
                    break
    return found


PRICE_NUMBER = re.compile(
    r"(?:输入|输出|缓存命中的输入|命中缓存的输入|缓存价)[^\d\n]{0,6}?(\d+(?:\.\d+)?)"
    r"|(\d+(?:\.\d+)?)\s*(?:美元|元)"
)


def wrong_prices(notebook: dict[str, Any], table: dict[str, dict[str, Any]]) -> list[WrongClaim]:
    """Per-million-token prices stated for a model of ``table`` (prose, outputs, strings in code)
    that are not that model's prices in ``table``: the one home for prices.
    """
    names = {}  # a name as written → the table's model
    for model in table:
        names[model.lower()] = model
        names.setdefault(model.split("-")[0].lower(), model)
    found = []
    for index, cell in enumerate(notebook["cells"]):
        segments = SENTENCE.findall(_unwrap(_text(cell["source"])))
        if cell["cell_type"] == "code":
            segments += _cell_outputs(cell).splitlines()
        for segment in segments:
            if True:
                lowered = segment.lower()
                if "百万" not in segment:
                    continue
                model = next(
                    (names[n] for n in sorted(names, key=len, reverse=True) if n in lowered), None
                )
                if model is None:
                    continue
                price = table[model]
                allowed = {
                    float(price[k])
                    for k in ("input", "output", "cached_input")
                    if price.get(k) is not None
                }
                for match in PRICE_NUMBER.finditer(segment):
                    value = float(match.group(1) or match.group(2))
                    if value not in allowed:
                        shown = "、".join(f"{v:g}" for v in sorted(allowed))
                        found.append(
                            WrongClaim(index, f"{model} 的价格", f"{value:g}", shown, segment)
                        )
    return found


def wrong_claims(notebook: dict[str, Any], prices: dict[str, dict[str, Any]]) -> list[WrongClaim]:
    return (
        wrong_shares(notebook)
        + wrong_line_counts(notebook)
        + wrong_step_counts(notebook)
        + wrong_prices(notebook, prices)
    )


__all__ += ["WrongClaim", "amount", "cjk_number", "wrong_claims", "wrong_line_counts"]
__all__ += ["wrong_prices", "wrong_shares", "wrong_step_counts"]


SECTION_REF = re.compile(r"第\s*(?P<number>\d+(?:\.\d+)*)\s*节「(?P<title>[^」]+)」")
NOTEBOOK_LINK = re.compile(r"\]\((?P<path>[^)\s]+\.ipynb)\)")


def headings(notebook: dict[str, Any]) -> dict[str, str]:
    """Section number → its title, from Markdown headings such as ``## 4. 手写 `extract_json```."""
    found = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for match in re.finditer(
            r"^#+\s*(\d+(?:\.\d+)*)\.?\s+(.+?)\s*$", _text(cell["source"]), re.M
        ):
            found.setdefault(match.group(1), match.group(2))
    return found


def wrong_section_titles(path: str | Path) -> list[WrongClaim]:
    """``第 4 节「标题」`` where section 4 of the notebook it points at (the last notebook linked
    before it in the cell, else its own notebook) has another title. A title may stop where the
    heading's own colon starts (「成本」 for "10. 成本：价格表……").
    """
    path = Path(path)
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        text = _text(cell["source"])
        for match in SECTION_REF.finditer(text):
            links = list(NOTEBOOK_LINK.finditer(text, 0, match.start()))
            target = (path.parent / links[-1].group("path")).resolve() if links else path
            if not target.exists():
                found.append(WrongClaim(index, "链接", str(target.name), "没有这个笔记本", text))
                continue
            title = headings(json.loads(target.read_text(encoding="utf-8"))).get(match["number"])
            wanted = match["title"].strip()
            if title is None or not (title == wanted or title.startswith(wanted + "：")):
                shown = f"第 {match['number']} 节是「{title}」" if title else "没有这一节"
                found.append(WrongClaim(index, "节标题", match.group(0), shown, text[:120]))
    return found


__all__ += ["headings", "wrong_section_titles"]


# --- One word for one thing -------------------------------------------------------------------

SYNONYMS = {  # a word the course does not use → the one it uses for the same thing
    "打码": "脱敏",
    "重复调用保护": "重复调用护栏",
    "异常保护": "捕获异常",
    "正常退出": "正常结束",
    "三种退出": "三个出口",
    "用户确认": "发起人确认",  # the person who asked confirms an L2 call (Day 5)
    "用户已确认": "发起人已确认",
}
DISCLAIMER = re.compile(r"规则引擎[，,、：:]?\s*(?:\*\*)?\s*不是\s*(?:LLM|大(?:语言)?模型)")


def _reader_text(cell: dict[str, Any]) -> str:
    """What a learner reads in a cell: Markdown, or the comments and strings of code."""
    source = _text(cell["source"])
    if cell["cell_type"] == "markdown":
        return source
    return "\n".join(
        re.findall(r"#[^\n]*|'''.*?'''|\"\"\".*?\"\"\"|\"[^\"\n]*\"|'[^'\n]*'", source, re.S)
    )


def other_words(notebook: dict[str, Any], synonyms: dict[str, str] = SYNONYMS) -> list[WrongClaim]:
    """Words a learner reads that name a thing the course calls by another word."""
    found = []
    for index, cell in enumerate(notebook["cells"]):
        text = _reader_text(cell)
        for word, term in synonyms.items():
            if word in text:
                at = text.index(word)
                context = text[max(0, at - 40) : at + 40]
                found.append(WrongClaim(index, "用词", word, f"课程叫它“{term}”", context))
    return found


def disclaimer_cells(notebook: dict[str, Any]) -> list[int]:
    """The Markdown cells that say the simulator is a rule engine, not an LLM."""
    return [
        index
        for index, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "markdown" and DISCLAIMER.search(_text(cell["source"]))
    ]


__all__ += ["SYNONYMS", "disclaimer_cells", "other_words"]
