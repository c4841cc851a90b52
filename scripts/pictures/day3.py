"""Day 3: the loop of ``Agent._loop`` with every exit and the hook points
(``hooks.prepare_messages`` …) later days use.
"""

from __future__ import annotations

from .svg import BAD, CODE, GOOD, INK, MODEL, MUTED, OTHER, PAUSE, TOOL, WARN, Svg, tint

# ---------------------------------------------------------------------------------------------
# Day 3: the loop and its exits
# ---------------------------------------------------------------------------------------------


def agent_loop() -> str:
    svg = Svg(
        1180,
        1040,
        "Agent 的循环：每一步请求模型、回传、回填，钩子点的名字，以及每一种结束方式（stop_reason）",
    )
    x, w = 90, 500  # the main column
    mid = x + w / 2
    exits = 740  # where the exits are drawn
    hook = tint(OTHER, 0.9)

    svg.box(
        x,
        20,
        w,
        54,
        ["开始：messages = [system, user]", "（继续对话时带上历史）"],
        color=INK,
        bold_first=False,
    )
    svg.line(mid, 74, mid, 108, color=INK)
    svg.box(
        x,
        110,
        w,
        62,
        ["第 n 步，n = 1 … max_steps", "先检查时间：超过 max_seconds 了吗？"],
        color=CODE,
        fill=tint(CODE, 0.92),
    )
    svg.line(x + w, 141, exits - 8, 141, color=WARN)
    svg.text((x + w + exits) / 2, 133, "超时", size=13, color=WARN)
    svg.pill(exits, 127, "timeout", "时间预算用完", color=WARN)

    svg.line(mid, 172, mid, 206, color=INK)
    svg.rect(x, 208, w, 76, fill=hook, stroke=OTHER, rx=8, dash="5 4")
    svg.text(
        x + 16,
        230,
        "钩子点：准备这一步的请求",
        size=13.5,
        anchor="start",
        weight="bold",
        color=OTHER,
    )
    svg.text(
        x + 16,
        252,
        "hooks.prepare_messages → 发给模型的副本（Day 4 记忆）",
        size=13,
        anchor="start",
    )
    svg.text(
        x + 16,
        273,
        "hooks.visible_tools → 这一步给模型看的工具（Day 5 权限）",
        size=13,
        anchor="start",
    )

    svg.line(mid, 284, mid, 318, color=INK)
    svg.box(
        x,
        320,
        w,
        62,
        [
            "请求模型：client.complete(sent, tools=…)",
            "sent 是钩子处理后的副本；run.messages 保留全部",
        ],
        color=MODEL,
        fill=tint(MODEL, 0.92),
    )
    svg.line(x + w, 351, exits - 8, 351, color=BAD)
    svg.text((x + w + exits) / 2, 343, "抛异常 / 空回复", size=13, color=BAD)
    svg.pill(exits, 337, "error", "网络、HTTP 错误、超时，或既无文字也无调用", color=BAD)

    svg.line(mid, 382, mid, 416, color=INK)
    svg.box(x + 110, 418, w - 220, 50, ["回复里有 tool_calls 吗？"], color=INK, bold_first=False)
    review_x, review_w = 650, 250
    svg.line(x + w - 110, 443, review_x - 8, 443, color=GOOD)
    svg.text((x + w - 110 + review_x) / 2, 435, "没有，只有文字", size=13, color=GOOD)
    svg.rect(review_x, 414, review_w, 58, fill=hook, stroke=OTHER, rx=8, dash="5 4")
    svg.text(
        review_x + review_w / 2,
        437,
        "hooks.review_answer(answer)",
        size=13,
        weight="bold",
        color=OTHER,
    )
    svg.text(review_x + review_w / 2, 458, "钩子对这个回答有意见吗？", size=13)
    svg.line(review_x + review_w, 443, 938, 443, color=GOOD)
    svg.text((review_x + review_w + 940) / 2, 435, "没有", size=13, color=GOOD)
    svg.pill(940, 429, "final", "正常出口", color=GOOD)
    svg.text(
        review_x + 4,
        494,
        [
            "有意见：把它作为一条 user 消息追加，",
            "不结束，进入下一步（例如回答声称做了",
            "工具并没有做的事）",
        ],
        size=12.5,
        anchor="start",
        color=MUTED,
    )

    svg.line(mid, 468, mid, 504, color=INK)
    svg.text(mid + 10, 492, "有", size=13, anchor="start")
    svg.box(
        x,
        506,
        w,
        54,
        ["回传：assistant 消息原样追加", "（id、参数文本一字不改）"],
        color=CODE,
        fill=tint(CODE, 0.92),
    )
    svg.line(mid, 560, mid, 594, color=INK)

    svg.rect(x, 596, w, 290, fill=tint(TOOL, 0.93), stroke=TOOL, rx=10)
    svg.text(mid, 620, "按调用顺序，逐个处理每一个调用", size=14, weight="bold", color=TOOL)
    rows = [
        ("重复调用？（同一工具、同样的参数）", "→ 不执行，回给上次的结果 ＋ 一句提示"),
        (
            "hooks.check_call(call)（Day 5 权限关卡）",
            "→ 放行 / 直接给出结果（如拒绝）/ 暂停等人确认",
        ),
        ("registry.dispatch(name, arguments)", "→ 校验参数、执行；出错也返回结果，从不抛异常"),
        ("hooks.after_call(call, result)（Day 5 脱敏）", "→ 改写模型要读到的结果"),
        ("回填：{role: tool, tool_call_id, content}", "→ 每个调用一条，id 对上它的调用"),
    ]
    for i, (what, then) in enumerate(rows):
        y = 650 + i * 46
        svg.text(x + 20, y, what, size=13.5, anchor="start", weight="bold")
        svg.text(x + 20, y + 20, then, size=13, anchor="start", color=MUTED)
    svg.line(x + w, 704, exits - 8, 704, color=PAUSE)
    svg.text((x + w + exits) / 2, 696, "需要确认", size=13, color=PAUSE)
    svg.pill(exits, 690, "needs_confirmation", "Day 5：等人决定", color=PAUSE)
    svg.text(exits, 740, "agent.resume(result, 决定) 接着跑", size=13, anchor="start", color=MUTED)

    svg.path(f"M {x} 860 L {x - 50} 860 L {x - 50} 141 L {x - 4} 141", color=CODE, width=2)
    svg.text(x - 58, 480, ["下", "一", "步"], size=14, anchor="end", color=CODE, weight="bold")
    svg.text(x - 58, 550, ["还", "没", "到", "上", "限"], size=12.5, anchor="end", color=CODE)

    svg.line(mid, 886, mid, 920, color=INK)
    svg.text(mid + 10, 908, "这已经是第 max_steps 步", size=13, anchor="start")
    svg.box(x, 922, w, 50, ["请求了 max_steps 次，模型还在要工具"], color=WARN, bold_first=False)
    svg.line(x + w, 947, exits - 8, 947, color=WARN)
    svg.pill(exits, 933, "max_steps", "安全阀：防止无限花费", color=WARN)

    svg.rect(exits - 10, 790, 420, 96, fill=hook, stroke=OTHER, rx=8, dash="5 4")
    svg.text(
        exits + 4,
        814,
        [
            "hooks.on_event(event)：每个事件都交给钩子",
            "（Day 6 写 trace、记花费）；任何钩子抛出",
            "StopRun(reason) → 以这个 reason 结束（例如 budget）",
        ],
        size=13,
        anchor="start",
        color=OTHER,
    )
    svg.text(
        590,
        1010,
        "虚线框是钩子点：今天没有钩子，它们原样放行。每一种结束方式都写在 RunResult.stop_reason"
        " 里，循环从不无界地转下去。",
        size=13.5,
        color=MUTED,
    )
    return svg.render()


PICTURES = {"day3_agent_loop.svg": agent_loop}
