"""Day 1: one tool-calling round as a sequence diagram, and the four parts of an agent."""

from __future__ import annotations

from .svg import CALL_A, CALL_B, CODE, MODEL, MUTED, TOOL, USER, Svg, text_width, tint

# ---------------------------------------------------------------------------------------------
# Day 1: one tool-calling round
# ---------------------------------------------------------------------------------------------


def tool_round() -> str:
    svg = Svg(1080, 860, "一轮工具调用：用户、你的代码、模型、工具之间的消息")
    lanes = {
        "用户": (70, USER),
        "工具": (265, TOOL),
        "你的代码（Agent）": (500, CODE),
        "模型（LLM）": (900, MODEL),
    }
    for name, (x, color) in lanes.items():
        w = text_width(name, 15) + 36
        svg.rect(x - w / 2, 18, w, 38, fill=tint(color), stroke=color)
        svg.text(x, 43, name, size=15, weight="bold", color=color)
        svg.line(x, 56, x, 840, color=tint(color, 0.45), width=1.4, dash="5 5", arrow=False)
    ux, tx, cx, mx = (lanes[name][0] for name in lanes)

    def message(
        y: float,
        start: float,
        end: float,
        label: str | list[str],
        color: str,
        *,
        dash: str | None = None,
        size: float = 13.5,
    ) -> None:
        svg.line(start, y, end, y, color=color, width=1.8, dash=dash)
        labels = label if isinstance(label, list) else [label]
        svg.text((start + end) / 2, y - 8 - (len(labels) - 1) * size * 1.35, labels, size=size)

    message(100, ux, cx, "“现在几点了？17 乘以 9 等于多少？”", USER)
    message(160, cx, mx, "① 请求：messages（system、user）＋ tools（两份 JSON Schema）", CODE)
    message(
        222,
        mx,
        cx,
        "② 回复：role = assistant，content = null，finish_reason = tool_calls",
        MODEL,
        dash="7 4",
    )
    svg.chip(cx + 24, 236, 'tool_calls[0] · id = "call_a" · get_current_time({})', color=CALL_A)
    svg.chip(
        cx + 24,
        268,
        'tool_calls[1] · id = "call_b" · calculator({"expression": "17 * 9"})',
        color=CALL_B,
    )
    svg.text(
        cx + 24,
        322,
        "arguments 是一段 JSON 文本：先 json.loads，再校验",
        size=12.5,
        anchor="start",
        color=MUTED,
    )

    message(370, cx, tx, "get_current_time()", TOOL, size=13)
    message(400, tx, cx, '{"success": true, "data": {…14:30…}}', TOOL, dash="7 4", size=12.5)
    message(450, cx, tx, 'calculator("17 * 9")', TOOL, size=13)
    message(480, tx, cx, '{"success": true, "data": 153}', TOOL, dash="7 4", size=12.5)
    svg.text(
        tx - 40,
        520,
        ["模型从不自己执行工具：", "执行的是你的代码"],
        size=12.5,
        anchor="start",
        color=MUTED,
    )

    message(
        570,
        cx,
        mx,
        [
            "③ 再请求：原来的 messages",
            "＋ assistant 消息（原样回传）＋ 每个调用一条 tool 消息（回填）",
        ],
        CODE,
    )
    svg.chip(cx + 24, 584, "role = assistant · tool_calls: call_a, call_b（一字不改）", color=MODEL)
    svg.chip(cx + 24, 616, 'role = tool · tool_call_id = "call_a" · {…14:30…}', color=CALL_A)
    svg.chip(cx + 24, 648, 'role = tool · tool_call_id = "call_b" · {…153…}', color=CALL_B)
    svg.text(
        cx + 24,
        702,
        "每个 id 都要有一条 tool 消息，顺序和调用一致",
        size=12.5,
        anchor="start",
        color=MUTED,
    )

    message(
        762,
        mx,
        cx,
        ["④ 回复：content = “现在 14:30；17 乘以 9 等于 153。”", "finish_reason = stop"],
        MODEL,
        dash="7 4",
    )
    message(818, cx, ux, "最终回答", CODE)
    return svg.render()


# ---------------------------------------------------------------------------------------------
# Day 1: the four parts of an agent
# ---------------------------------------------------------------------------------------------


def four_parts() -> str:
    svg = Svg(1080, 560, "Agent 的四个组成部分：大脑、工具、记忆、编排，以及搭建它们的那一天")
    cx, cy, half = 540, 300, 150  # the orchestration box in the middle
    svg.box(
        cx - half,
        cy - 70,
        2 * half,
        140,
        [
            "编排（Orchestration）",
            "你写的代码：循环、停止条件、",
            "出错处理、权限、日志",
            "Day 3 循环 · Day 5 权限",
            "Day 6 日志 · Day 7 做成服务",
        ],
        color=CODE,
        fill=tint(CODE, 0.9),
    )
    svg.box(
        cx - 170,
        26,
        340,
        112,
        [
            "大脑（LLM）",
            "理解请求、决定用不用工具、",
            "用哪个、最后组织回答",
            "Day 1 调用它 · Day 2 约束它的输出",
        ],
        color=MODEL,
        fill=tint(MODEL, 0.9),
    )
    svg.box(
        780,
        cy - 62,
        280,
        124,
        [
            "工具（Tools）",
            "计算、查时间、读写数据库……",
            "每个配一份 JSON Schema 说明书",
            "Day 2 提示词版 · Day 3 原生 tools",
        ],
        color=TOOL,
        fill=tint(TOOL, 0.9),
    )
    svg.box(
        20,
        cy - 62,
        280,
        124,
        [
            "记忆（Memory）",
            "短期：这次对话的消息列表",
            "长期：跨会话的事实和偏好",
            "Day 4 窗口、摘要、长期记忆",
        ],
        color=USER,
        fill=tint(USER, 0.9),
    )
    svg.line(cx - 40, cy - 70, cx - 40, 140, color=MODEL, width=2)
    svg.line(cx + 40, 140, cx + 40, cy - 70, color=MODEL, width=2)
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
    svg.line(cx - 30, 440, cx - 30, cy + 72, color=USER, width=2)
    svg.line(cx + 30, cy + 72, cx + 30, 440, color=CODE, width=2)
    svg.text(cx - 40, 405, "问题", size=12.5, anchor="end")
    svg.text(cx + 40, 405, "回答", size=12.5, anchor="start")
    svg.text(
        cx,
        530,
        "模型只“说出”想调用哪个工具、参数是什么；真正执行工具的，是编排这一层——你写的代码。",
        size=14,
        color=MUTED,
    )
    return svg.render()


PICTURES = {"day1_tool_round.svg": tool_round, "day1_four_parts.svg": four_parts}
