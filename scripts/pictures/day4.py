"""Day 4: how a conversation splits into rounds, and what a window and a summary send when the
budget is passed.
"""

from __future__ import annotations

from .svg import (
    BAD,
    CALL_A,
    CALL_B,
    CODE,
    GOOD,
    INK,
    MODEL,
    MUTED,
    OTHER,
    TOOL,
    USER,
    Svg,
    text_width,
    tint,
)

# ---------------------------------------------------------------------------------------------
# Day 4: a conversation split into rounds
# ---------------------------------------------------------------------------------------------

ROLE_COLOURS = {"system": INK, "user": USER, "assistant": MODEL, "tool": TOOL}


def rounds() -> str:
    svg = Svg(
        1080,
        650,
        "一段对话怎样切成“轮”：头部的 system 消息不算一轮；一轮从 user 消息开始，"
        "调用和它的结果总在同一轮",
    )
    messages = [
        ("system", "你是一个可以调用工具的助手……", None),
        ("user", "北京和上海明天天气怎么样？", None),
        ("assistant", "tool_calls：call_a 查北京，call_b 查上海", "calls"),
        ("tool", "tool_call_id = call_b · 上海：阴", CALL_B),
        ("tool", "tool_call_id = call_a · 北京：多云", CALL_A),
        ("assistant", "北京多云，上海阴。", None),
        ("user", "我的预算上限是 5000 元。", None),
        ("assistant", "好的，知道了。", None),
        ("user", "17 乘以 9 等于多少？", None),
        ("assistant", "tool_calls：call_c 计算 17 * 9", "call_c"),
        ("tool", "tool_call_id = call_c · 153", OTHER),
        ("assistant", "17 乘以 9 等于 153。", None),
    ]
    x, w, top, step = 40, 470, 70, 42
    svg.text(x, 40, "消息列表（从上往下是时间顺序）", size=15, anchor="start", weight="bold")
    for i, (role, text, mark) in enumerate(messages):
        y = top + i * step
        color = ROLE_COLOURS[role]
        svg.rect(x, y, w, step - 8, fill=tint(color, 0.9), stroke=color, rx=6)
        svg.rect(x, y, 6, step - 8, fill=color, stroke=color, rx=2, width=0)
        svg.text(
            x + 16, y + 22, role, size=13, anchor="start", weight="bold", color=color, mono=True
        )
        if mark == "calls":
            svg.text(x + 110, y + 22, "tool_calls：", size=13, anchor="start")
            svg.text(
                x + 110 + text_width("tool_calls：", 13),
                y + 22,
                "call_a 查北京",
                size=13,
                anchor="start",
                color=CALL_A,
                weight="bold",
            )
            svg.text(
                x + 110 + text_width("tool_calls：call_a 查北京，", 13),
                y + 22,
                "call_b 查上海",
                size=13,
                anchor="start",
                color=CALL_B,
                weight="bold",
            )
        elif mark == "call_c":
            svg.text(x + 110, y + 22, text, size=13, anchor="start", color=INK)
        else:
            svg.text(
                x + 110,
                y + 22,
                text,
                size=13,
                anchor="start",
                color=mark or INK,
                weight="bold" if mark else "normal",
            )

    def bracket(first: int, last: int, label: list[str], color: str) -> None:
        y1, y2 = top + first * step, top + last * step + step - 8
        bx = x + w + 16
        svg.path(
            f"M {bx} {y1} L {bx + 10} {y1} L {bx + 10} {y2} L {bx} {y2}",
            color=color,
            width=2,
            arrow=False,
        )
        svg.text(
            bx + 22,
            (y1 + y2) / 2 - (len(label) - 1) * 9 + 5,
            label,
            size=13.5,
            anchor="start",
            color=color,
        )

    bracket(0, 0, ["头部：开头的 system 消息，不算一轮，永远保留"], INK)
    bracket(1, 5, ["第 1 轮：一次并行调用，两个结果", "（顺序可以和调用不同）都在这一轮"], USER)
    bracket(6, 7, ["第 2 轮：没有工具"], USER)
    bracket(8, 11, ["第 3 轮：调用、结果、回答"], USER)

    # where to cut, and where never to
    cut_ok = top + 6 * step - 4
    svg.line(x - 20, cut_ok, x + w + 8, cut_ok, color=GOOD, width=2.2, dash="7 4", arrow=False)
    svg.text(x - 24, cut_ok + 5, "✔", size=16, anchor="end", color=GOOD, weight="bold")
    cut_bad = top + 3 * step - 4
    svg.line(x - 20, cut_bad, x + w + 8, cut_bad, color=BAD, width=2.2, dash="3 3", arrow=False)
    svg.text(x - 24, cut_bad + 5, "✘", size=16, anchor="end", color=BAD, weight="bold")

    nx = 720
    svg.rect(nx, 300, 340, 118, fill=tint(GOOD, 0.92), stroke=GOOD, rx=8)
    svg.text(
        nx + 14,
        326,
        [
            "✔ 在轮与轮之间切（绿线）：",
            "调用和它的所有结果同进同出，",
            "服务器总是接受。",
            "裁剪和压缩都整轮丢弃、整轮保留。",
        ],
        size=13.5,
        anchor="start",
        color=INK,
    )
    svg.rect(nx, 436, 340, 118, fill=tint(BAD, 0.92), stroke=BAD, rx=8)
    svg.text(
        nx + 14,
        462,
        [
            "✘ 按条数切（红线）：",
            "tool 消息留下了，它的调用却被丢掉",
            "（或者反过来）——整个请求被拒绝，",
            "HTTP 400。",
        ],
        size=13.5,
        anchor="start",
        color=INK,
    )
    svg.text(
        x,
        630,
        "一轮 = 从一条 user 消息开始，到下一条 user 消息之前；头部之后、第一条 user "
        "之前的消息自成一轮。",
        size=13.5,
        anchor="start",
        color=MUTED,
    )
    return svg.render()


# ---------------------------------------------------------------------------------------------
# Day 4: the window and the summary, past the budget
# ---------------------------------------------------------------------------------------------


def window_vs_summary() -> str:
    svg = Svg(
        1080,
        640,
        "超出预算时，滑动窗口和摘要压缩各发什么：丢掉的轮、摘要、低水位，"
        "以及下一次请求能复用的开头",
    )
    left, scale = 190, 50  # x of the first block; pixels per round
    head_w = 120  # system messages and tool descriptions
    budget_x = left + head_w + 13 * scale
    free = (
        budget_x - left - head_w - 2 * scale
    )  # what the budget leaves once the head and the last two rounds are counted
    summary_rounds = 0.6 * free / scale

    def blocks(y: float, spec: list[tuple[str, float, str]]) -> float:
        """Draw blocks left to right: (label, width in rounds, colour); returns the x after the
        last.
        """
        bx = left
        for label, width, color in spec:
            w = head_w if label == "head" else width * scale
            svg.rect(bx, y, w - 4, 40, fill=tint(color, 0.8), stroke=color, rx=5)
            svg.text(
                bx + (w - 4) / 2,
                y + 25,
                "system＋工具说明" if label == "head" else label,
                size=12.5 if label == "head" else 13,
            )
            bx += w
        return bx

    def row_label(y: float, lines: list[str], color: str) -> None:
        svg.text(20, y + 16, lines, size=14, anchor="start", color=color, weight="bold")

    svg.line(budget_x, 50, budget_x, 560, color=BAD, width=1.6, dash="6 4", arrow=False)
    svg.text(budget_x, 42, "预算", size=14, color=BAD, weight="bold")
    svg.text(
        30,
        42,
        "每一行是一次请求发给模型的内容；方块的长度代表 token 数（示意）",
        size=13,
        anchor="start",
        color=MUTED,
    )

    y = 70
    row_label(y, ["不管理"], INK)
    end = blocks(y, [("head", 0, CODE)] + [(f"第 {n} 轮", 1.0, USER) for n in range(1, 15)])
    svg.text(end + 6, y + 25, "超了", size=13, anchor="start", color=BAD)

    y = 160
    row_label(y, ["滑动窗口"], USER)
    end = blocks(y, [("head", 0, CODE)] + [(f"第 {n} 轮", 1.0, USER) for n in range(3, 15)])
    svg.text(
        left,
        y + 62,
        [
            "第 1、2 轮整轮丢掉，彻底没了。每来一轮就要再丢最早的一轮：请求的开头每次都变，",
            "服务商的提示词缓存只能命中 system 和工具说明。",
        ],
        size=13,
        anchor="start",
        color=INK,
    )

    y = 280
    row_label(y, ["摘要压缩", "（低水位）"], MODEL)
    end = blocks(
        y,
        [
            ("head", 0, CODE),
            ("摘要：第 1–12 轮的事实、偏好、约束", summary_rounds, MODEL),
            ("第 13 轮", 1.0, USER),
            ("第 14 轮", 1.0, USER),
        ],
    )
    svg.rect(end, y, budget_x - end, 40, fill="#ffffff", stroke=GOOD, rx=5, dash="4 3")
    svg.text((end + budget_x) / 2, y + 25, "空着", size=13, color=GOOD)
    summary_end = left + head_w + summary_rounds * scale
    svg.text((left + head_w + summary_end) / 2, y - 8, "剩余空间的 60%", size=12.5, color=MODEL)
    svg.text((end + budget_x) / 2, y - 8, "40%，留给后面几轮", size=12.5, color=GOOD)
    svg.text(
        left,
        y + 62,
        [
            "较早的轮由模型写成一条摘要（多一次模型调用），最近两轮原样保留。",
            "剩余空间 = 预算 − system 和工具说明 − 最近两轮；摘要只用它的 60%，这就是低水位。",
        ],
        size=13,
        anchor="start",
        color=INK,
    )

    y = 410
    row_label(y, ["接下来", "几轮"], MODEL)
    end = blocks(
        y,
        [
            ("head", 0, CODE),
            ("摘要：第 1–12 轮的事实、偏好、约束", summary_rounds, MODEL),
            ("第 13 轮", 1.0, USER),
            ("第 14 轮", 1.0, USER),
            ("第 15 轮", 1.0, USER),
            ("第 16 轮", 1.0, USER),
        ],
    )
    same = end - 2 * scale - 4
    svg.path(
        f"M {left} {y + 48} L {left} {y + 56} L {same} {y + 56} L {same} {y + 48}",
        color=GOOD,
        width=2,
        arrow=False,
    )
    svg.text(
        left,
        y + 80,
        [
            "括起来的部分和上一次请求一字不差：服务商可以从缓存里读它，按缓存价计费。",
            "直到再次超出预算，才写下一次摘要（之前的摘要和新落下的轮合成一条）。",
        ],
        size=13,
        anchor="start",
        color=INK,
    )
    svg.text(
        20,
        620,
        "压到刚好放下，下一轮就又超了：每一轮都要重写摘要，每一次开头都变。"
        "低水位让压缩隔几轮才发生一次。",
        size=13.5,
        anchor="start",
        color=MUTED,
    )
    return svg.render()


PICTURES = {"day4_rounds.svg": rounds, "day4_window_vs_summary.svg": window_vs_summary}
