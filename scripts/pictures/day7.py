"""Day 7: a run that pauses for a confirmation, as a sequence diagram over HTTP and SSE; the
statuses of a run.
"""

from __future__ import annotations

from .svg import BAD, CODE, GOOD, INK, MODEL, MUTED, OTHER, PAUSE, TOOL, USER, Svg, text_width, tint

# ---------------------------------------------------------------------------------------------
# Day 7: POST → SSE → requires_action → decision → resume
# ---------------------------------------------------------------------------------------------

DB = "#8a6d3b"


def run_sequence() -> str:
    svg = Svg(
        1200,
        1064,
        "一个需要确认的运行：POST 创建、SSE 事件流、停在 requires_action、HTTP 上的决定、继续运行",
    )
    lanes = {
        "前端（浏览器 / httpx）": (115, USER),
        "服务（FastAPI）": (420, CODE),
        "SQLite": (660, DB),
        "工作线程（Agent 循环）": (910, TOOL),
        "模型": (1120, MODEL),
    }
    bottom = 1048
    for name, (x, color) in lanes.items():
        w = text_width(name, 14.5) + 30
        svg.rect(x - w / 2, 16, w, 36, fill=tint(color), stroke=color)
        svg.text(x, 40, name, size=14.5, weight="bold", color=color)
        svg.line(x, 52, x, bottom, color=tint(color, 0.45), width=1.4, dash="5 5", arrow=False)
    front, service, db, worker, model = (lanes[name][0] for name in lanes)

    def message(
        y: float,
        start: float,
        end: float,
        label: str | list[str],
        color: str,
        *,
        dash: str | None = None,
        size: float = 13,
    ) -> None:
        svg.line(start, y, end, y, color=color, width=1.7, dash=dash)
        labels = label if isinstance(label, list) else [label]
        svg.text((start + end) / 2, y - 7 - (len(labels) - 1) * size * 1.35, labels, size=size)

    def note(x: float, y: float, lines: list[str], color: str, width: float) -> None:
        height = 14 + 18 * len(lines)
        svg.rect(x, y, width, height, fill=tint(color, 0.9), stroke=color, rx=6, width=1.2)
        svg.text(x + 10, y + 19, lines, size=12.5, anchor="start", line=1.42)

    def phase(y: float, label: str, color: str) -> None:
        svg.rect(
            8, y - 16, 1184, 24, fill=tint(color, 0.93), stroke=tint(color, 0.6), rx=4, width=1
        )
        svg.text(18, y + 1, label, size=13, anchor="start", weight="bold", color=color)

    phase(78, "① 创建运行：立刻回答，运行在后台进行", CODE)
    message(
        126,
        front,
        service,
        ["POST /v1/runs  {session_id, message}", "Idempotency-Key: k-001"],
        USER,
    )
    message(166, service, db, ["BEGIN IMMEDIATE：查键 →", "新运行 queued → 记键"], CODE, size=12.5)
    message(198, service, front, "201  运行对象（status: queued）", CODE, dash="7 4")
    message(230, service, worker, "交给工作线程池", CODE, size=12.5)

    phase(270, "② 事件流：一个不关闭的 HTTP 响应，事件一写进数据库就推过去", TOOL)
    message(306, front, service, "GET /v1/runs/{id}/events（SSE）", USER)
    message(338, worker, db, "running · 事件 run_start", TOOL, size=12.5)
    message(370, worker, model, "messages + tools", TOOL, size=12.5)
    message(402, model, worker, "tool_calls: book_meeting_room", MODEL, dash="7 4", size=12.5)
    note(worker + 12, 414, ["权限关卡：订会议室是 L2，", "要发起人确认 → 暂停"], PAUSE, 186)
    message(
        500,
        worker,
        db,
        ["事件 needs_confirmation", "状态 requires_action", "运行状态存成 JSON"],
        PAUSE,
        size=12.5,
    )
    message(
        542,
        service,
        front,
        ["id: 1 … n  event: …  data: {…}", 'event: end  data: {"status": "requires_action"}'],
        CODE,
        dash="7 4",
        size=12.5,
    )
    svg.text(front + 8, 566, "看到 end：停下来，不再重连", size=12, anchor="start", color=MUTED)

    phase(604, "③ 等人决定：没有线程在等，运行只是数据库里的一行（重启也不丢）", PAUSE)
    note(front - 100, 620, ["前端画出确认卡片，", "张明点“批准”"], USER, 200)
    message(
        718,
        front,
        service,
        ["POST /v1/runs/{id}/confirmations/{request_id}", "{decision: approve}"],
        USER,
    )
    message(752, service, db, ["记下决定（只记一次；", "改主意 → 409）"], CODE, size=12.5)
    message(786, service, worker, "每个请求都有了决定 → 继续", CODE, size=12.5)
    message(818, service, front, "200  决定", CODE, dash="7 4")

    phase(858, "④ 继续：事件接着原来的编号", GOOD)
    message(894, front, service, "GET …/events  Last-Event-ID: n", USER)
    svg.text(
        worker + 10,
        920,
        ["执行 book_meeting_room，", "回填结果"],
        size=12.5,
        anchor="start",
        color=TOOL,
    )
    message(968, worker, model, "再请求", TOOL, size=12.5)
    message(996, model, worker, "最终回答", MODEL, dash="7 4", size=12.5)
    message(1016, worker, db, "final · stop · completed", GOOD, size=12.5)
    message(
        1040,
        service,
        front,
        'id: n+1 …  event: end  {"status": "completed"}',
        CODE,
        dash="7 4",
        size=12.5,
    )
    return svg.render()


# ---------------------------------------------------------------------------------------------
# Day 7: the statuses of a run
# ---------------------------------------------------------------------------------------------


def run_states() -> str:
    svg = Svg(
        1060,
        600,
        "运行的状态：queued、running、requires_action，以及三种结束状态；每个箭头写着是谁触发的",
    )

    def state(
        x: float, y: float, name: str, note: str, color: str, w: float = 210
    ) -> tuple[float, float, float, float]:
        svg.rect(x, y, w, 62, fill=tint(color, 0.88), stroke=color, rx=14, width=2)
        svg.text(x + w / 2, y + 26, name, size=16, weight="bold", color=color, mono=True)
        svg.text(x + w / 2, y + 48, note, size=12.5, color=INK)
        return x, y, w, 62

    qx, qy, qw, qh = state(60, 200, "queued", "排队：等一个空闲的工作线程", INK, 230)
    rx, ry, rw, rh = state(390, 200, "running", "工作线程在跑 Agent 循环", TOOL)
    px, py, pw, ph = state(390, 430, "requires_action", "等人决定（可以等几天）", PAUSE, 230)
    cx, cy, cw, ch = state(800, 40, "completed", "得到回答", GOOD)
    fx, fy, fw, fh = state(800, 216, "failed", "原因在 error 里", BAD)
    kx, ky, kw, kh = state(800, 400, "cancelled", "被取消", OTHER)

    svg.rect(20, 219, 16, 16, fill=INK, stroke=INK, rx=8)
    svg.line(36, 227, qx - 4, 227, color=INK)
    svg.text(24, 168, ["POST /v1/runs", "（新的幂等键）"], size=12.5, anchor="start")

    svg.line(qx + qw, 231, rx - 4, 231, color=TOOL, width=2)
    svg.text((qx + qw + rx) / 2, 222, "工作线程认领", size=12.5)

    svg.line(rx + rw, 212, cx - 4, cy + 40, color=GOOD, width=2)
    svg.text(668, 112, ["模型给出回答", "（stop_reason: final）"], size=12.5)
    svg.line(rx + rw, 236, fx - 4, fy + 28, color=BAD, width=2)
    svg.text(732, 184, ["出错、步数用完、超时；", "或租约过期（进程死了）"], size=12.5)
    svg.line(rx + rw, 254, kx - 4, ky + 20, color=OTHER, width=2)
    svg.text(690, 378, ["cancel：在下一个", "事件处停下"], size=12.5, anchor="end")

    svg.line(rx + 70, ry + rh, px + 70, py - 4, color=PAUSE, width=2)
    svg.text(rx + 62, 330, ["权限关卡：", "需要确认"], size=12.5, anchor="end")
    svg.line(px + 150, py, rx + 150, ry + rh + 4, color=GOOD, width=2)
    svg.text(rx + 160, 330, ["每个请求都有了决定", "（批准或拒绝）"], size=12.5, anchor="start")

    svg.line(px + pw, py + 40, kx - 4, ky + 50, color=OTHER, width=2)
    svg.text(720, 480, ["cancel；", "发起人被删除"], size=12.5)
    svg.path(
        f"M {qx + 60} {qy + qh} L {qx + 60} 560 L {kx + kw / 2} 560 L {kx + kw / 2} {ky + kh + 4}",
        color=OTHER,
        width=2,
    )
    svg.text(qx + 70, 552, "cancel（还没开始）", size=12.5, anchor="start")

    svg.rect(140, 300, 236, 86, fill="#fafafa", stroke=MUTED, rx=8, dash="4 4")
    svg.text(
        152,
        324,
        [
            "这四个状态：completed、failed、",
            "cancelled、requires_action——",
            "事件流发出 end，然后关闭",
        ],
        size=12.5,
        anchor="start",
        color=MUTED,
    )
    svg.text(
        530,
        592,
        "状态只存在 SQLite 里：哪个进程来认领、继续、取消都可以；重启时中断的 running 被标成"
        " failed，不会自动重跑。",
        size=13,
        color=MUTED,
    )
    return svg.render()


PICTURES = {"day7_run_sequence.svg": run_sequence, "day7_run_states.svg": run_states}
