"""Day 3: the loop of ``Agent._loop`` with every exit and the hooks later days attach."""

from __future__ import annotations

from .svg import BAD, CODE, GOOD, INK, MODEL, MUTED, OTHER, PAUSE, TOOL, WARN, Svg, tint

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


PICTURES = {"day3_agent_loop.svg": agent_loop}
