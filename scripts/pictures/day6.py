"""Day 6: how a trace's lines become OpenTelemetry spans (the span tree), and how the evaluation and
the trace work together.
"""

from __future__ import annotations

from .svg import BAD, CODE, GOOD, INK, MODEL, MUTED, OTHER, PAUSE, TOOL, WARN, Svg, tint

# ---------------------------------------------------------------------------------------------
# Day 6: the span tree of one run
# ---------------------------------------------------------------------------------------------


def span_tree() -> str:
    svg = Svg(1080, 620, "一次运行的 span 树：JSONL 里的行怎样变成 OpenTelemetry 的 span 和事件")
    svg.text(
        40,
        40,
        "一次运行 = 一棵 span 树（export_spans 导出的样子；横条的长短只是示意，不是测量值）",
        size=15,
        anchor="start",
        weight="bold",
    )

    tree_x, bar_x, bar_w = 40, 520, 500
    rows = [
        # (indent, label, detail, colour, start, end)
        # start/end: fractions of the run, for the sketch only
        (
            0,
            "invoke_agent handwritten_agent",
            "一次运行：request_id、user.id、stop_reason、token 总数",
            CODE,
            0.0,
            1.0,
        ),
        (
            1,
            "chat course-sim",
            "第 1 步的模型调用：gen_ai.request.model、input/output tokens",
            MODEL,
            0.02,
            0.36,
        ),
        (
            1,
            "execute_tool query_room_availability",
            "第 1 步的工具调用：gen_ai.tool.name、gen_ai.tool.call.id",
            TOOL,
            0.38,
            0.47,
        ),
        (
            1,
            "execute_tool query_customer_info",
            "同一步的第二个工具调用（按调用顺序）",
            TOOL,
            0.48,
            0.55,
        ),
        (1, "chat course-sim", "第 2 步的模型调用：读了工具结果，给出回答", MODEL, 0.57, 0.97),
    ]
    top, height = 78, 62
    svg.line(bar_x, top - 10, bar_x + bar_w, top - 10, color=OTHER, width=1, arrow=True)
    svg.text(bar_x + bar_w, top - 18, "时间 →", size=12.5, anchor="end", color=MUTED)
    for index, (indent, label, detail, colour, start, end) in enumerate(rows):
        y = top + index * height
        x = tree_x + indent * 34
        if indent:
            svg.path(
                f"M {tree_x + 12} {top + 50} L {tree_x + 12} {y + 16} L {x - 4} {y + 16}",
                color=OTHER,
                width=1.2,
                arrow=False,
            )
        svg.text(x, y + 20, label, size=14, anchor="start", weight="bold", mono=True, color=colour)
        svg.text(x, y + 40, detail, size=12.5, anchor="start", color=MUTED)
        svg.rect(
            bar_x + start * bar_w,
            y + 6,
            (end - start) * bar_w,
            22,
            fill=tint(colour, 0.55),
            stroke=colour,
            rx=4,
        )

    events_y = top + len(rows) * height + 6
    svg.text(
        tree_x,
        events_y + 16,
        "根 span 上的事件（span event）：",
        size=14,
        anchor="start",
        weight="bold",
        color=PAUSE,
    )
    svg.text(
        tree_x,
        events_y + 38,
        "permission（关卡的每个决定）、retry（429/5xx 重试）、memory（窗口裁剪）、"
        "needs_confirmation",
        size=12.5,
        anchor="start",
        color=MUTED,
    )
    for fraction in (0.37, 0.475):
        x = bar_x + fraction * bar_w
        svg.line(x, top + 30, x, top + 6, color=PAUSE, width=1.4, arrow=False)
        svg.text(x, top + 44, "◆", size=14, color=PAUSE)
    svg.text(
        bar_x + 0.53 * bar_w, top + 46, "◆ permission 事件", size=12, anchor="start", color=PAUSE
    )

    box_y = events_y + 62
    svg.rect(40, box_y, 1000, 150, fill="#fafafa", stroke=OTHER, rx=8, dash="4 4")
    svg.text(60, box_y + 28, "JSONL 的行 → span", size=14, anchor="start", weight="bold")
    mapping = [
        ("run_start … run_end", "invoke_agent 根 span（开始、结束时间取这两行的 ts）", CODE),
        (
            "model_call（写在调用返回时）",
            "chat span：结束在这一行的 ts，开始 = ts − duration_ms",
            MODEL,
        ),
        (
            "tool_call → tool_result",
            "execute_tool span：从 tool_call 行到 tool_result 行；失败的 span 状态为 ERROR",
            TOOL,
        ),
        (
            "permission、retry、memory …",
            "根 span 上的事件；参考文章的字段名换成约定名（model → gen_ai.response.model）",
            PAUSE,
        ),
    ]
    for index, (lines, span, colour) in enumerate(mapping):
        y = box_y + 56 + index * 24
        svg.text(60, y, lines, size=13, anchor="start", mono=True, color=colour)
        svg.text(360, y, span, size=13, anchor="start")
    return svg.render()


# ---------------------------------------------------------------------------------------------
# Day 6: the evaluation says *that* a run failed, the trace says *where*
# ---------------------------------------------------------------------------------------------


def eval_and_trace() -> str:
    svg = Svg(1080, 460, "评测和 trace 是一个故事：评测说哪次运行不对，trace 说错在第几步")
    svg.box(
        30,
        40,
        210,
        96,
        ["10 个用例", "请求、期望的调用、", "数据库检查、回答事实"],
        color=INK,
        bold_first=True,
    )
    svg.line(240, 88, 296, 88, color=INK)
    svg.box(
        298,
        30,
        260,
        116,
        [
            "每个用例跑 k 次",
            "每次一个全新的数据库",
            "同一个 Agent：工具、关卡、",
            "记忆窗口、系统提示词",
        ],
        color=CODE,
        fill=tint(CODE, 0.92),
    )
    svg.line(558, 70, 640, 52, color=INK)
    svg.line(558, 106, 640, 150, color=INK)
    svg.box(
        642,
        20,
        400,
        76,
        ["评分（每次运行）", "工具选择 · 参数 · 数据库 · 回答事实 → 通过 / 不通过"],
        color=GOOD,
        fill=tint(GOOD, 0.9),
    )
    svg.box(
        642,
        118,
        400,
        76,
        ["trace（同一次运行，Tracer 挂在 Agent 上）", "每一步一行：调用、参数、结果、耗时、token"],
        color=MODEL,
        fill=tint(MODEL, 0.92),
    )

    svg.path("M 1042 58 L 1062 58 L 1062 276 L 1046 276", color=BAD, width=1.8)
    svg.box(
        642,
        238,
        400,
        76,
        ["没通过的那次运行", "run_id 同时出现在评分和 trace 里"],
        color=BAD,
        fill=tint(BAD, 0.9),
    )
    svg.line(842, 194, 842, 236, color=MODEL)
    svg.line(642, 276, 560, 276, color=BAD)
    svg.box(
        298,
        230,
        260,
        92,
        ["读 trace：错在第几步", "参数差一点？少了一步？", "回答说了没做的事？"],
        color=WARN,
        fill=tint(WARN, 0.9),
    )
    svg.line(298, 276, 242, 276, color=WARN)
    svg.box(
        30,
        230,
        210,
        92,
        ["改一处", "工具描述、系统提示词、", "换模型"],
        color=TOOL,
        fill=tint(TOOL, 0.9),
    )
    svg.path("M 135 230 L 135 150", color=TOOL, width=2)
    svg.text(150, 196, "再跑一遍评测，用数字比较", size=13, anchor="start", color=TOOL)

    svg.text(
        540,
        372,
        "pass^1：随便挑一次运行，通过的机会；pass^k：同一个请求问 k 次，次次都通过的机会。",
        size=14,
        color=INK,
    )
    svg.text(
        540,
        400,
        "一个时灵时不灵的 Agent，pass^1 可以很高而 pass^k 很低——“稳定回答”要看 pass^k。",
        size=14,
        color=INK,
    )
    svg.text(
        540,
        436,
        "评测只回答“对不对”，trace 只回答“发生了什么”：两样一起，才知道该改哪里。",
        size=13.5,
        color=MUTED,
    )
    return svg.render()


PICTURES = {"day6_span_tree.svg": span_tree, "day6_eval_and_trace.svg": eval_and_trace}
