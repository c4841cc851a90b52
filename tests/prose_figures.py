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


def stale_figures(notebook: dict[str, Any]) -> list[StaleFigure]:
    """Figures in Markdown cells that no output (nor, when not measured, the code) of ``notebook``
    shows.
    """
    shown = outputs_text(notebook)
    code = "\n".join(
        _text(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"
    )
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        prose = _unwrap(CODE_SPAN.sub(" ", _text(cell["source"])))
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
