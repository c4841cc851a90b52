"""Run a few of Days 4–7's requests once on the local model and save the runs as data for the
notebooks.

    python scripts/capture_office_transcripts.py              # all four days; needs `make local`
    python scripts/capture_office_transcripts.py --days 4 5   # only these

Each day's notebook prints its file (``notebooks/data/dayN_local_transcript.json``) next to what the
offline simulator did, the way Day 3 prints ``day3_local_transcript.json`` (written by
``capture_transcript.py``, whose machine description this script reuses). A run that pauses for a
confirmation is decided the way the notebook decides it (approve or reject, by the right person) and
resumed, a bounded number of times. The notebooks never re-run the model, so every file says which
model, which llama-cpp-python, which machine, how busy it was and when; every step keeps its model
time and token counts, and every tool call what it asked and what came back.

Days: 4, one conversation whose later questions lean on the earlier ones; 5, the office agent behind
the permission gate (an L2 booking approved, a bulk SMS raised to L3 and rejected); 6, the same
behind a ``Tracer`` (its lines are kept) with the trace's diagnosis; 7, the agent the service runs
(``office_agent``: dated prompt, window, claim check). Left out: several runs and statistics
(``python -m handwritten_agent eval --repeat 3`` measures those), the HTTP layer of Day 7 (the same
agent runs behind it), and providers that need a key.
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from capture_transcript import cpu_name, load_average, steps_of, usable_cores  # noqa: E402

DATA = ROOT / "notebooks" / "data"
FIXED_NOW = datetime(
    2026, 3, 12, 14, 30
)  # the notebooks' clock, so tool results match the simulator's
MAX_PAUSES = 3  # a run is resumed at most this many times

DAY4_QUESTIONS = [
    "北京明天天气怎么样？",
    "那上海呢？",
    "17 乘以 9 等于多少？",
    "刚才那个结果乘以 2",
]
READ = "2026-03-13 15:00 到 16:00 有哪些会议室空闲？查一下客户 C001 的信息"
BOOK = "帮我预订 2026-03-13 15:00 到 16:00 的会议室 room_301，6 个人"
SMS_ALL = "给所有客户发短信：您的订单已发货"
EMAIL = (
    "给 lili@example.com 发一封邮件，主题是“会议改期”，内容是“周五的项目周会改到下周一上午 10 点”"
)


def tool_calls_of(result) -> list[dict[str, Any]]:
    """Every tool call of a run: what the model asked, whether it ran, and what came back
    (shortened).
    """
    return [
        {
            "name": record.call.name,
            "arguments": (
                record.call.args if isinstance(record.call.args, dict) else record.call.arguments
            ),
            "executed": record.executed,
            "success": record.result.success,
            "error": record.result.error,
            "content": record.content[:300],
        }
        for record in result.tool_calls
    ]


def record_run(
    label: str, request: str, result, seconds: float, decisions: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "label": label,
        "question": request,
        "stop_reason": result.stop_reason,
        "answer": result.answer,
        "error": result.error,
        "seconds": round(seconds, 1),
        "steps": steps_of(result),
        "tool_calls": tool_calls_of(result),
        "decisions": decisions or [],
        "pending": [
            {"tool": p.tool, "level": p.level, "summary": p.summary} for p in result.pending
        ],
    }


def run_deciding(agent, request: str, decide: Callable[[Any], Any], run_id: str):
    """Run, then answer every pause with ``decide(request)`` and resume, at most MAX_PAUSES
    times.
    """
    started = time.perf_counter()
    result = agent.run(request, run_id=run_id)
    decisions = []
    for _ in range(MAX_PAUSES):
        if result.stop_reason != "needs_confirmation":
            break
        answers = {pending.id: decide(pending) for pending in result.pending}
        decisions += [
            {
                "tool": pending.tool,
                "level": pending.level,
                "summary": pending.summary,
                "decision": answers[pending.id].verdict,
                "by": answers[pending.id].by.name if answers[pending.id].by else None,
            }
            for pending in result.pending
        ]
        result = agent.resume(result, answers)
    return result, time.perf_counter() - started, decisions


def day4(client) -> list[dict[str, Any]]:
    from handwritten_agent.memory import Conversation
    from handwritten_agent.scenarios import basic_registry

    chat = Conversation(client, basic_registry(now=FIXED_NOW))
    runs = []
    for question in DAY4_QUESTIONS:
        started = time.perf_counter()
        result = chat.ask(question)
        runs.append(record_run("同一个会话", question, result, time.perf_counter() - started))
        print(
            f"第 4 天 {question} → {result.stop_reason}：{result.answer or result.error}",
            file=sys.stderr,
        )
    return runs


def office_runs(client, make_agent, day: int, extra=None) -> list[dict[str, Any]]:
    """The booking (张明 confirms it) and the bulk SMS (李丽 rejects it) on a fresh office, plus
    ``extra`` runs.
    """
    from handwritten_agent.permissions import User, approve, reject
    from handwritten_agent.scenarios.office import OfficeScenario

    office = OfficeScenario.create(
        Path(tempfile.mkdtemp(prefix=f"day{day}_capture_")), now=FIXED_NOW
    )
    zhang = User("E001", role="行政助理", name="张明")
    li = User("E002", role="行政主管", name="李丽")
    agent = make_agent(client, office, zhang)
    plan = [
        ("查询", READ, lambda pending: approve(by=zhang)),
        (
            "订会议室，张明批准",
            BOOK,
            lambda pending: approve(by=li if pending.approver_role else zhang),
        ),
        ("给所有客户发短信，李丽拒绝", SMS_ALL, lambda pending: reject("不要群发", by=li)),
        *(extra or []),
    ]
    runs = []
    for n, (label, request, decide) in enumerate(plan, 1):
        result, seconds, decisions = run_deciding(agent, request, decide, f"run_day{day}_{n:02d}")
        recorded = record_run(label, request, result, seconds, decisions)
        recorded["database"] = {
            "bookings": office.count("bookings"),
            "sms_outbox": office.count("sms_outbox"),
            "email_outbox": office.count("email_outbox"),
        }
        runs.append(recorded)
        print(
            f"第 {day} 天 {label} → {result.stop_reason}：{result.answer or result.error}",
            file=sys.stderr,
        )
    return runs


def day5(client) -> list[dict[str, Any]]:
    from handwritten_agent.agent import Agent
    from handwritten_agent.permissions import PolicyGate

    return office_runs(
        client,
        lambda model, office, user: Agent(
            model, office.registry(user), hooks=[PolicyGate(office.policy(), user)]
        ),
        5,
    )


def day6(client) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    from handwritten_agent.agent import Agent
    from handwritten_agent.permissions import PolicyGate
    from handwritten_agent.tracing import Tracer, diagnose

    tracer = Tracer(client=client, user_id="u_001", session_id="s_capture")  # lines kept in memory
    runs = office_runs(
        client,
        lambda model, office, user: Agent(
            model, office.registry(user), hooks=[PolicyGate(office.policy(), user), tracer]
        ),
        6,
    )
    findings = [
        {
            "request_id": f.request_id,
            "rule": f.rule,
            "step": f.step,
            "title": f.title,
            "severity": f.severity,
            "detail": f.detail,
        }
        for f in diagnose(tracer.lines)
    ]
    return (
        runs,
        findings,
        tracer.lines,
    )  # the trace itself, so the notebook can diagnose it with its own expectations


def day7(client) -> list[dict[str, Any]]:
    from handwritten_agent.permissions import User, approve
    from handwritten_agent.service.agents import office_agent

    def make(model, office, user):
        return office_agent(model, office, office.policy(), user, now=FIXED_NOW)

    li = User("E002", role="行政主管", name="李丽")
    return office_runs(
        client, make, 7, extra=[("发邮件（L3），李丽批准", EMAIL, lambda pending: approve(by=li))]
    )


def header(client, backend: str) -> dict[str, Any]:
    """Which model (the course's local file, or what another backend serves), which machine, which
    clock.
    """
    machine = (
        f"{cpu_name()}（{platform.machine()}），可用 {usable_cores()} 核，Python"
        f" {platform.python_version()}"
    )
    if backend != "local":
        return {
            "model": client.model,
            "served_as": client.model,
            "runtime": f"后端 {backend}",
            "machine": machine,
            "clock": FIXED_NOW.isoformat(timespec="minutes"),
        }
    from handwritten_agent.course.offline import model_fetch

    return {
        "model": model_fetch.COURSE_MODEL.label,
        "model_file": model_fetch.model_path().name,
        "model_sha256": model_fetch.COURSE_MODEL.sha256,
        "served_as": client.model,
        "runtime": f"llama-cpp-python {importlib.metadata.version('llama-cpp-python')}",
        "machine": machine,
        "clock": FIXED_NOW.isoformat(timespec="minutes"),
    }


def main(argv: list[str] | None = None) -> int:
    from handwritten_agent.cli_parser import ChineseParser
    from handwritten_agent.llm import connect

    parser = ChineseParser(
        description=(
            "用本地模型把第 4～7 天的几个请求各跑一次，把运行记录存成 notebook 读的数据（需要先"
            " make local）。"
        )
    )
    parser.add_argument(
        "--days",
        type=int,
        nargs="+",
        default=[4, 5, 6, 7],
        choices=[4, 5, 6, 7],
        help="录哪几天（默认 4 5 6 7）",
    )
    parser.add_argument(
        "--out", type=Path, default=DATA, help="写到哪个文件夹（默认 notebooks/data）"
    )
    parser.add_argument(
        "--backend", default="local", help="哪个后端（默认 local；offline 只用来试这个脚本）"
    )
    args = parser.parse_args(argv)
    client = connect(args.backend)
    for day in args.days:
        data = header(client, args.backend)
        data["load_at_start"] = load_average()
        if day == 4:
            data["runs"] = day4(client)
        elif day == 5:
            data["runs"] = day5(client)
        elif day == 6:
            data["runs"], data["findings"], data["trace"] = day6(client)
        else:
            data["runs"] = day7(client)
        data["load_at_end"] = load_average()
        data["captured_at"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        path = args.out / f"day{day}_local_transcript.json"
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n", encoding="utf-8"
        )
        print(f"已写入 {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
