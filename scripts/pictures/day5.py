"""Day 5: the gate's order (deny → ask → allow, failing closed) and a run that pauses for a person
and resumes.
"""

from __future__ import annotations

from .svg import BAD, CODE, GOOD, INK, MODEL, MUTED, PAUSE, TOOL, USER, WARN, Svg, text_width, tint

# ---------------------------------------------------------------------------------------------
# Day 5: deny → ask → allow
# ---------------------------------------------------------------------------------------------


def gate_flow() -> str:
    svg = Svg(
        1080,
        740,
        "关卡检查一个工具调用的顺序：先找拒绝的理由，再看要不要人点头，最后才放行；"
        "检查出错一律不执行",
    )
    x, w = 60, 470  # the column of questions
    mid = x + w / 2
    out = 610  # where the answers are drawn

    svg.box(
        x,
        18,
        w,
        58,
        ["模型发出一个工具调用", "call = 工具名 + 参数（JSON 文本）+ 谁在操作"],
        color=MODEL,
        fill=tint(MODEL, 0.9),
    )
    svg.line(mid, 76, mid, 104, color=INK)
    svg.text(x - 10, 124, "① deny", size=15, anchor="start", color=BAD, weight="bold")
    questions = [
        (108, "这个角色有规则吗？", "没有规则的角色，什么都不能调"),
        (172, "这个角色看得到这个工具吗？", "不在白名单、L0、或根本没有这个工具"),
        (236, "参数是一个合法的 JSON 对象吗？", "解析不了、不是对象、不符合 schema"),
        (300, "还在频率限制之内吗？", "同一用户、同一工具，窗口内的次数"),
    ]
    for y, question, why in questions:
        svg.box(
            x + 70, y, w - 70, 48, [question], color=BAD, fill=tint(BAD, 0.93), bold_first=False
        )
        svg.line(x + w, y + 24, out - 8, y + 24, color=BAD)
        svg.text((x + w + out) / 2, y + 16, "否", size=13, color=BAD)
        svg.text(out, y + 20, why, size=13, anchor="start", color=MUTED)
        svg.line(mid + 35, y + 48, mid + 35, y + 62, color=INK)
        svg.text(mid + 45, y + 60, "是", size=11.5, anchor="start", color=MUTED)
    svg.box(
        out + 250,
        108,
        190,
        240,
        [
            "拒绝",
            "不执行",
            "把原因作为这个调用的",
            "工具结果告诉模型",
            "（一个调用也不能",
            "没有回答）",
        ],
        color=BAD,
        fill=tint(BAD, 0.88),
    )
    for y, _, _ in questions:
        svg.line(out + 236, y + 24, out + 248, y + 24, color=BAD, arrow=False)

    svg.text(x - 10, 398, "② ask", size=15, anchor="start", color=PAUSE, weight="bold")
    svg.box(
        x + 70,
        382,
        w - 70,
        64,
        ["这个角色用它是几级？", "批量超限、读过外部内容 → 升级"],
        color=PAUSE,
        fill=tint(PAUSE, 0.92),
    )
    svg.line(x + w, 400, out - 8, 400, color=PAUSE)
    svg.text((x + w + out) / 2, 392, "L2", size=13, color=PAUSE, weight="bold")
    svg.text(out, 404, "发起人自己确认一次", size=13, anchor="start", color=MUTED)
    svg.line(x + w, 430, out - 8, 430, color=PAUSE)
    svg.text((x + w + out) / 2, 448, "L3", size=13, color=PAUSE, weight="bold")
    svg.text(out, 434, "有审批角色的人批准", size=13, anchor="start", color=MUTED)
    svg.box(
        out + 250, 376, 190, 76, ["暂停", "等人决定（卡片）"], color=PAUSE, fill=tint(PAUSE, 0.86)
    )
    svg.line(out + 160, 400, out + 248, 400, color=PAUSE, arrow=False)
    svg.line(out + 160, 430, out + 248, 430, color=PAUSE, arrow=False)

    svg.line(mid + 35, 446, mid + 35, 492, color=INK)
    svg.text(mid + 45, 476, "L1", size=13, anchor="start", weight="bold", color=GOOD)
    svg.text(x - 10, 520, "③ allow", size=15, anchor="start", color=GOOD, weight="bold")
    svg.box(
        x + 70,
        494,
        w - 70,
        48,
        ["只读、没有副作用：执行"],
        color=GOOD,
        fill=tint(GOOD, 0.9),
        bold_first=False,
    )
    svg.line(x + w, 518, out + 248, 518, color=GOOD)
    svg.box(out + 250, 494, 190, 48, ["放行"], color=GOOD, fill=tint(GOOD, 0.86))

    svg.rect(x, 570, 960, 78, fill=tint(WARN, 0.9), stroke=WARN, dash="6 4")
    svg.text(
        x + 20, 598, "失败即关闭（fail closed）", size=15, anchor="start", color=WARN, weight="bold"
    )
    svg.text(
        x + 20,
        626,
        "检查过程中出了任何异常、遇到说不清的级别或决定，"
        "结果都是“拒绝”——从来不会因为一个检查做不成，就让调用执行。",
        size=13.5,
        anchor="start",
    )
    svg.text(
        x,
        688,
        "为什么是这个顺序：能拒绝的调用，根本不该去打扰人；批量超限或读过外部内容的调用，哪怕本来是"
        " L1，也要先升级，不能先放行。",
        size=13.5,
        anchor="start",
        color=MUTED,
    )
    svg.text(
        x,
        716,
        "每一个结果（放行、等待、拒绝）都先写进审计日志，再执行工具。",
        size=13.5,
        anchor="start",
        color=MUTED,
    )
    return svg.render()


# ---------------------------------------------------------------------------------------------
# Day 5: a run that pauses and resumes
# ---------------------------------------------------------------------------------------------


def pause_resume() -> str:
    svg = Svg(
        1080,
        900,
        "一次暂停和继续：调用被拦下、运行变成一段 JSON、人做决定、从暂停处继续，工具只执行一次",
    )
    lanes = {
        "用户 / 审批人": (80, USER),
        "Agent 循环": (330, CODE),
        "关卡": (560, PAUSE),
        "模型": (780, MODEL),
        "工具": (980, TOOL),
    }
    for name, (x, color) in lanes.items():
        w = text_width(name, 15) + 30
        svg.rect(x - w / 2, 16, w, 36, fill=tint(color), stroke=color)
        svg.text(x, 40, name, size=15, weight="bold", color=color)
        svg.line(x, 52, x, 880, color=tint(color, 0.45), width=1.4, dash="5 5", arrow=False)
    ux, ax, gx, mx, tx = (lanes[name][0] for name in lanes)

    def message(
        y: float,
        start: float,
        end: float,
        label: str | list[str],
        color: str,
        *,
        dash: str | None = None,
    ) -> None:
        svg.line(start, y, end, y, color=color, width=1.8, dash=dash)
        labels = label if isinstance(label, list) else [label]
        svg.text((start + end) / 2, y - 8 - (len(labels) - 1) * 13.5 * 1.35, labels, size=13.5)

    message(96, ux, ax, "“帮我订 room_301，6 个人”", USER)
    message(142, ax, mx, "messages + tools", CODE)
    message(186, mx, ax, "tool_calls：book_meeting_room(…)", MODEL, dash="7 4")
    message(232, ax, gx, "check_call(call)", CODE)
    message(276, gx, ax, ["L2：要发起人确认", "抛出 NeedsConfirmation"], PAUSE, dash="7 4")
    svg.rect(ax - 150, 300, 420, 116, fill=tint(PAUSE, 0.9), stroke=PAUSE)
    svg.text(
        ax - 136,
        324,
        "运行暂停：stop_reason = needs_confirmation",
        size=13.5,
        anchor="start",
        weight="bold",
        color=PAUSE,
    )
    svg.text(ax - 136, 348, "暂停的运行是数据：messages、等待的调用、", size=13, anchor="start")
    svg.text(
        ax - 136, 368, "确认请求（工具、脱敏后的参数、级别、谁来决定、", size=13, anchor="start"
    )
    svg.text(
        ax - 136, 388, "参数的 sha256）——to_json() 存下来，进程退出也不丢", size=13, anchor="start"
    )
    svg.text(ax - 136, 408, "审计日志：等待确认（已落盘）", size=13, anchor="start", color=MUTED)
    message(448, ax, ux, "确认卡片：摘要、参数、批准 / 拒绝", CODE)
    svg.text(
        ux - 60,
        490,
        ["人看清摘要再决定", "（可能过了很久、", "在另一个进程里）"],
        size=12.5,
        anchor="start",
        color=MUTED,
    )
    message(560, ux, ax, "决定：{请求 id: 批准}", USER)
    message(604, ax, gx, "resume：check_call(call, 决定)", CODE)
    svg.text(
        gx + 16,
        630,
        ["请求是我发的吗？参数的 sha256 对得上吗？", "决定人有权吗？这个请求决定过吗？"],
        size=12.5,
        anchor="start",
        color=MUTED,
    )
    message(690, gx, ax, "通过：审计日志先写“发起人已确认”", PAUSE, dash="7 4")
    message(730, ax, tx, "执行一次", TOOL)
    message(764, tx, ax, '{"success": true, "data": {"booking_id": …}}', TOOL, dash="7 4")
    message(806, ax, mx, "回填结果，再请求", CODE)
    message(846, mx, ax, "最终回答", MODEL, dash="7 4")
    svg.text(
        ax + 20,
        872,
        "同一个决定再用一次：关卡回答“已经执行过”，工具不会跑第二次",
        size=13,
        anchor="start",
        color=BAD,
    )
    return svg.render()


PICTURES = {"day5_gate_flow.svg": gate_flow, "day5_pause_resume.svg": pause_resume}
