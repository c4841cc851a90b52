"""The course's pictures, drawn as hand-written SVG: ``python scripts/diagrams.py`` writes them to notebooks/images/.

Three pictures, each a function that returns SVG text:

- ``tool_round``  Day 1: one tool-calling round as a sequence diagram — the ``id`` of each call and the
                  ``tool_call_id`` of its answer share a colour;
- ``four_parts``  Day 1: the four parts of an agent (brain, tools, memory, orchestration) and the day that
                  builds each;
- ``agent_loop``  Day 3: the loop of ``Agent._loop`` with every exit and the hooks later days attach.

Pure standard library: the SVG is written by hand (no matplotlib, no graphviz), so the pictures are
reproducible byte for byte and reviewable as text. ``--check`` exits 1 when a committed picture differs
from what this script draws (the tests run it).

Left out: measuring text with real fonts (widths are estimated, boxes are drawn with room to spare) and
any layout engine — coordinates are chosen by hand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

OUT = Path(__file__).resolve().parents[1] / "notebooks" / "images"

FONT = ("'PingFang SC','Hiragino Sans GB','Microsoft YaHei','Noto Sans CJK SC','Source Han Sans SC',"
        "'WenQuanYi Micro Hei',sans-serif")
MONO = "Menlo,Consolas,'DejaVu Sans Mono','Noto Sans Mono CJK SC','WenQuanYi Micro Hei Mono',monospace"

INK = "#2b2b2b"
MUTED = "#6b6b6b"
USER, CODE, MODEL, TOOL = "#4e79a7", "#59a14f", "#8e6bb8", "#e08a2b"
CALL_A, CALL_B = "#d1495b", "#1f8a9e"
GOOD, WARN, BAD, PAUSE, OTHER = "#3c8d2f", "#c77c02", "#c0392b", "#7d4fb0", "#7f7f7f"


def text_width(text: str, size: float, mono: bool = False) -> float:
    """An estimate of the drawn width: a CJK character is about one em, Latin about 0.56 em (0.6 in mono)."""
    latin = 0.6 if mono else 0.56
    return sum(size * (1.0 if ord(char) > 0x2E7F else latin) for char in text)


class Svg:
    """A few drawing primitives that append SVG elements."""

    def __init__(self, width: int, height: int, title: str):
        self.width, self.height, self.title = width, height, title
        self.items: list[str] = []
        self.markers: dict[str, str] = {}

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "#fff", stroke: str = INK, rx: float = 8,
             width: float = 1.5, dash: str | None = None) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" fill="{fill}" '
                          f'stroke="{stroke}" stroke-width="{width:g}"{dashed}/>')

    def text(self, x: float, y: float, content: str | list[str], *, size: float = 14, anchor: str = "middle",
             color: str = INK, weight: str = "normal", mono: bool = False, line: float = 1.35) -> None:
        lines = content if isinstance(content, list) else [content]
        family = MONO if mono else FONT
        spans = "".join(f'<tspan x="{x:g}" dy="{0 if i == 0 else size * line:g}">{escape(part)}</tspan>'
                        for i, part in enumerate(lines))
        self.items.append(f'<text x="{x:g}" y="{y:g}" font-family="{family}" font-size="{size:g}" fill="{color}" '
                          f'text-anchor="{anchor}" font-weight="{weight}">{spans}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, *, color: str = INK, width: float = 1.6,
             dash: str | None = None, arrow: bool = True) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        head = f' marker-end="url(#{self._marker(color)})"' if arrow else ""
        self.items.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{color}" '
                          f'stroke-width="{width:g}"{dashed}{head}/>')

    def path(self, d: str, *, color: str = INK, width: float = 1.6, dash: str | None = None, arrow: bool = True) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        head = f' marker-end="url(#{self._marker(color)})"' if arrow else ""
        self.items.append(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="{width:g}"{dashed}{head}/>')

    def box(self, x: float, y: float, w: float, h: float, lines: list[str], *, color: str, fill: str = "#fff",
            size: float = 14, bold_first: bool = True, dash: str | None = None) -> None:
        """A rounded box with centred lines; the first one bold (a title)."""
        self.rect(x, y, w, h, fill=fill, stroke=color, dash=dash)
        top = y + h / 2 - (len(lines) - 1) * size * 1.4 / 2 + size * 0.35
        for i, part in enumerate(lines):
            self.text(x + w / 2, top + i * size * 1.4, part, size=size,
                      weight="bold" if bold_first and i == 0 else "normal", color=color if bold_first and i == 0 else INK)

    def chip(self, x: float, y: float, text: str, *, color: str, size: float = 12.5) -> float:
        """A tinted label with a coloured bar on its left, in monospace; returns its width."""
        w = text_width(text, size, mono=True) + 22
        self.rect(x, y, w, size + 12, fill=tint(color), stroke=color, rx=5, width=1.2)
        self.rect(x, y, 5, size + 12, fill=color, stroke=color, rx=2, width=0)
        self.text(x + 13, y + size + 3, text, size=size, anchor="start", mono=True)
        return w

    def pill(self, x: float, y: float, label: str, note: str, *, color: str) -> None:
        """An exit of the loop: a coloured pill with the stop_reason, a note beside it."""
        w = text_width(label, 14, mono=True) + 26
        self.rect(x, y, w, 28, fill=color, stroke=color, rx=14)
        self.text(x + w / 2, y + 19, label, size=14, color="#fff", weight="bold", mono=True)
        self.text(x + w + 10, y + 19, note, size=13, anchor="start", color=MUTED)

    def _marker(self, color: str) -> str:
        name = "arrow-" + color.lstrip("#")
        self.markers[name] = (f'<marker id="{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
                              f'markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
                              f'fill="{color}"/></marker>')
        return name

    def render(self) -> str:
        defs = "".join(self.markers[name] for name in sorted(self.markers))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" role="img" aria-label="{escape(self.title)}">\n'
                f'<title>{escape(self.title)}</title>\n<defs>{defs}</defs>\n'
                f'<rect width="100%" height="100%" fill="#ffffff"/>\n' + "\n".join(self.items) + "\n</svg>\n")


def tint(color: str, amount: float = 0.88) -> str:
    """``color`` mixed with white (``amount`` of white)."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


# ---------------------------------------------------------------------------------------------
# Day 1: one tool-calling round
# ---------------------------------------------------------------------------------------------

def tool_round() -> str:
    svg = Svg(1080, 860, "一轮工具调用：用户、你的代码、模型、工具之间的消息")
    lanes = {"用户": (70, USER), "工具": (265, TOOL), "你的代码（Agent）": (500, CODE), "模型（LLM）": (900, MODEL)}
    for name, (x, color) in lanes.items():
        w = text_width(name, 15) + 36
        svg.rect(x - w / 2, 18, w, 38, fill=tint(color), stroke=color)
        svg.text(x, 43, name, size=15, weight="bold", color=color)
        svg.line(x, 56, x, 840, color=tint(color, 0.45), width=1.4, dash="5 5", arrow=False)
    ux, tx, cx, mx = (lanes[name][0] for name in lanes)

    def message(y: float, start: float, end: float, label: str | list[str], color: str, *, dash: str | None = None,
                size: float = 13.5) -> None:
        svg.line(start, y, end, y, color=color, width=1.8, dash=dash)
        labels = label if isinstance(label, list) else [label]
        svg.text((start + end) / 2, y - 8 - (len(labels) - 1) * size * 1.35, labels, size=size)

    message(100, ux, cx, "“现在几点了？17 乘以 9 等于多少？”", USER)
    message(160, cx, mx, "① 请求：messages（system、user）＋ tools（两份 JSON Schema）", CODE)
    message(222, mx, cx, "② 回复：role = assistant，content = null，finish_reason = tool_calls", MODEL, dash="7 4")
    svg.chip(cx + 24, 236, 'tool_calls[0] · id = "call_a" · get_current_time({})', color=CALL_A)
    svg.chip(cx + 24, 268, 'tool_calls[1] · id = "call_b" · calculator({"expression": "17 * 9"})', color=CALL_B)
    svg.text(cx + 24, 322, "arguments 是一段 JSON 文本：先 json.loads，再校验", size=12.5, anchor="start", color=MUTED)

    message(370, cx, tx, 'get_current_time()', TOOL, size=13)
    message(400, tx, cx, '{"success": true, "data": {…14:30…}}', TOOL, dash="7 4", size=12.5)
    message(450, cx, tx, 'calculator("17 * 9")', TOOL, size=13)
    message(480, tx, cx, '{"success": true, "data": 153}', TOOL, dash="7 4", size=12.5)
    svg.text(tx - 40, 520, ["模型从不自己执行工具：", "执行的是你的代码"], size=12.5, anchor="start", color=MUTED)

    message(570, cx, mx, ["③ 再请求：原来的 messages", "＋ assistant 消息（原样回传）＋ 每个调用一条 tool 消息（回填）"], CODE)
    svg.chip(cx + 24, 584, 'role = assistant · tool_calls: call_a, call_b（一字不改）', color=MODEL)
    svg.chip(cx + 24, 616, 'role = tool · tool_call_id = "call_a" · {…14:30…}', color=CALL_A)
    svg.chip(cx + 24, 648, 'role = tool · tool_call_id = "call_b" · {…153…}', color=CALL_B)
    svg.text(cx + 24, 702, "每个 id 都要有一条 tool 消息，顺序和调用一致", size=12.5, anchor="start", color=MUTED)

    message(762, mx, cx, ["④ 回复：content = “现在 14:30；17 乘以 9 等于 153。”", "finish_reason = stop"], MODEL, dash="7 4")
    message(818, cx, ux, "最终回答", CODE)
    return svg.render()


# ---------------------------------------------------------------------------------------------
# Day 1: the four parts of an agent
# ---------------------------------------------------------------------------------------------

def four_parts() -> str:
    svg = Svg(1080, 560, "Agent 的四个组成部分：大脑、工具、记忆、编排，以及搭建它们的那一天")
    cx, cy, half = 540, 300, 150  # the orchestration box in the middle
    svg.box(cx - half, cy - 62, 2 * half, 124, ["编排（Orchestration）", "你写的代码：循环、停止条件、", "出错处理、权限、日志",
                                              "Day 3 循环 · Day 5–7 编写中"], color=CODE, fill=tint(CODE, 0.9))
    svg.box(cx - 170, 26, 340, 112, ["大脑（LLM）", "理解请求、决定用不用工具、", "用哪个、最后组织回答",
                                     "Day 1 调用它 · Day 2 约束它的输出"], color=MODEL, fill=tint(MODEL, 0.9))
    svg.box(780, cy - 62, 280, 124, ["工具（Tools）", "计算、查时间、读写数据库……", "每个配一份 JSON Schema 说明书",
                                     "Day 2 提示词版 · Day 3 原生 tools"], color=TOOL, fill=tint(TOOL, 0.9))
    svg.box(20, cy - 62, 280, 124, ["记忆（Memory）", "短期：这次对话的消息列表", "长期：跨会话的事实和偏好",
                                    "Day 4（编写中）"], color=USER, fill=tint(USER, 0.9))
    svg.line(cx - 40, cy - 62, cx - 40, 140, color=MODEL, width=2)
    svg.line(cx + 40, 140, cx + 40, cy - 62, color=MODEL, width=2)
    svg.text(cx - 50, 192, ["messages", "+ tools"], size=12.5, anchor="end", mono=True)
    svg.text(cx + 50, 192, ["文字，或", "tool_calls"], size=12.5, anchor="start")
    right, left = cx + half, cx - half
    svg.line(right, cy - 20, 778, cy - 20, color=TOOL, width=2)
    svg.line(778, cy + 20, right, cy + 20, color=TOOL, width=2)
    svg.text((right + 780) / 2, cy - 30, "执行调用", size=12.5)
    svg.text((right + 780) / 2, cy + 42, "结果", size=12.5)
    svg.line(left, cy - 20, 302, cy - 20, color=USER, width=2)
    svg.line(302, cy + 20, left, cy + 20, color=USER, width=2)
    svg.text((left + 300) / 2, cy - 30, "追加消息", size=12.5)
    svg.text((left + 300) / 2, cy + 42, "取出历史", size=12.5)
    svg.box(cx - 130, 440, 260, 50, ["用户"], color=USER, size=15)
    svg.line(cx - 30, 440, cx - 30, cy + 64, color=USER, width=2)
    svg.line(cx + 30, cy + 64, cx + 30, 440, color=CODE, width=2)
    svg.text(cx - 40, 405, "问题", size=12.5, anchor="end")
    svg.text(cx + 40, 405, "回答", size=12.5, anchor="start")
    svg.text(cx, 530, "模型只“说出”想调用哪个工具、参数是什么；真正执行工具的，是编排这一层——你写的代码。",
             size=14, color=MUTED)
    return svg.render()


# ---------------------------------------------------------------------------------------------
# Day 3: the loop and its exits
# ---------------------------------------------------------------------------------------------

def agent_loop() -> str:
    svg = Svg(1080, 900, "Agent 的循环：每一步请求模型、回传、回填，以及每一种结束方式（stop_reason）")
    x, w = 90, 470  # the main column
    mid = x + w / 2
    exits = 700  # where the exits are drawn

    svg.box(x, 20, w, 54, ["开始：messages = [system, user]", "（继续对话时带上历史）"], color=INK, bold_first=False)
    svg.line(mid, 74, mid, 108, color=INK)
    svg.box(x, 110, w, 62, ["第 n 步，n = 1 … max_steps", "先检查时间：超过 max_seconds 了吗？"], color=CODE, fill=tint(CODE, 0.92))
    svg.line(x + w, 141, exits - 8, 141, color=WARN)
    svg.text((x + w + exits) / 2, 133, "超时", size=13, color=WARN)
    svg.pill(exits, 127, "timeout", "时间预算用完", color=WARN)

    svg.line(mid, 172, mid, 206, color=INK)
    svg.box(x, 208, w, 62, ["请求模型：client.complete(messages, tools)", "memory 钩子先裁剪要发送的副本（Day 4）"], color=MODEL,
            fill=tint(MODEL, 0.92))
    svg.line(x + w, 239, exits - 8, 239, color=BAD)
    svg.text((x + w + exits) / 2, 231, "抛异常 / 空回复", size=13, color=BAD)
    svg.pill(exits, 225, "error", "网络、HTTP 错误、超时，或既无文字也无调用", color=BAD)

    svg.line(mid, 270, mid, 304, color=INK)
    svg.box(x + 95, 306, w - 190, 50, ["回复里有 tool_calls 吗？"], color=INK, bold_first=False)
    svg.line(x + w - 95, 331, exits - 8, 331, color=GOOD)
    svg.text((x + w - 95 + exits) / 2, 323, "没有，只有文字", size=13, color=GOOD)
    svg.pill(exits, 317, "final", "正常出口：文字就是最终回答", color=GOOD)

    svg.line(mid, 356, mid, 392, color=INK)
    svg.text(mid + 10, 380, "有", size=13, anchor="start")
    svg.box(x, 394, w, 54, ["回传：assistant 消息原样追加", "（id、参数文本一字不改）"], color=CODE, fill=tint(CODE, 0.92))
    svg.line(mid, 448, mid, 482, color=INK)

    svg.rect(x, 484, w, 246, fill=tint(TOOL, 0.93), stroke=TOOL, rx=10)
    svg.text(mid, 508, "按调用顺序，逐个处理每一个调用", size=14, weight="bold", color=TOOL)
    rows = [("重复调用？（同一工具、同样的参数）", "→ 不执行，回给上次的结果 ＋ 一句提示"),
            ("gate.check(call)（权限关卡，Day 5）", "→ 放行 / 拒绝（结果写给模型）/ 需要确认"),
            ("registry.dispatch(name, arguments)", "→ 校验参数、执行；出错也返回结果，从不抛异常"),
            ("回填：{role: tool, tool_call_id, content}", "→ 每个调用一条，id 对上它的调用")]
    for i, (what, then) in enumerate(rows):
        y = 540 + i * 48
        svg.text(x + 20, y, what, size=13.5, anchor="start", weight="bold")
        svg.text(x + 20, y + 20, then, size=13, anchor="start", color=MUTED)
    svg.line(x + w, 594, exits - 8, 594, color=PAUSE)
    svg.text((x + w + exits) / 2, 586, "需要确认", size=13, color=PAUSE)
    svg.pill(exits, 580, "needs_confirmation", "Day 5：等人决定", color=PAUSE)
    svg.text(exits, 630, "agent.resume(result, 决定) 接着跑", size=13, anchor="start", color=MUTED)

    svg.path(f"M {x} 700 L {x - 50} 700 L {x - 50} 141 L {x - 4} 141", color=CODE, width=2)
    svg.text(x - 58, 400, ["下", "一", "步"], size=14, anchor="end", color=CODE, weight="bold")
    svg.text(x - 58, 470, ["还", "没", "到", "上", "限"], size=12.5, anchor="end", color=CODE)

    svg.line(mid, 730, mid, 764, color=INK)
    svg.text(mid + 10, 752, "这已经是第 max_steps 步", size=13, anchor="start")
    svg.box(x, 766, w, 54, ["请求了 max_steps 次，模型还在要工具"], color=WARN, bold_first=False)
    svg.line(x + w, 793, exits - 8, 793, color=WARN)
    svg.pill(exits, 779, "max_steps", "安全阀：防止无限花费", color=WARN)

    svg.rect(exits - 10, 680, 360, 74, fill="#fafafa", stroke=OTHER, rx=8, dash="4 4")
    svg.text(exits + 4, 704, ["on_event：每个事件都报告给你（Day 6 写日志）；", "钩子抛出 StopRun(reason) → 以这个 reason 结束",
                              "（例如 budget：预算用完）"], size=13, anchor="start", color=OTHER)
    svg.text(540, 870, "每一种结束方式都有名字，写在 RunResult.stop_reason 里；循环从不无界地转下去。", size=14, color=MUTED)
    return svg.render()


PICTURES = {"day1_tool_round.svg": tool_round, "day1_four_parts.svg": four_parts, "day3_agent_loop.svg": agent_loop}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write (or check) the course's SVG pictures in notebooks/images/.")
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed picture differs from this script's")
    args = parser.parse_args(argv)
    stale = []
    for name, draw in PICTURES.items():
        path, svg = OUT / name, draw()
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != svg:
                stale.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
            print(f"已写入 {path.relative_to(OUT.parents[1])}")
    if stale:
        print("这些图片和 scripts/diagrams.py 画出的不一致，请运行 python scripts/diagrams.py：" + "、".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
