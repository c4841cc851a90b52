"""The checklist's runs: the course's office assistant, built exactly as the service builds it, put
through each item.

Every check makes a fresh office in a scratch folder, builds the assistant with
``make_assistant(folder, client)`` (by default the service's ``OfficeAssistant``), and drives one
run with a model chosen for the item — a scripted model that calls each L2/L3 tool, the simulator's
``repeat_forever`` and ``slow`` faults, the strict offline server for parallel calls — then reads
what happened: the run's result, the office database, the run's trace file. A check returns
``(passed, detail)``; the detail says what was seen, in Chinese.

Left out: real providers (the checks need models that misbehave on purpose; the offline simulator
and scripted models do that reproducibly), and load (the appendix notebook
``appendix_after_launch.ipynb``, 上线之后, has a small load run).
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from ...agent import Agent, AgentEvent, RunResult
from ...messages import ChatModel, ChatResult
from ...storage import open_sqlite

NOW = datetime(2026, 3, 12, 14, 30)
SESSION = "checklist"


class Assistant(Protocol):
    """What the service's agent factory offers (``service.agents.OfficeAssistant``)."""

    office: Any

    def __call__(
        self, user: Any, session_id: str, on_event: Callable[[AgentEvent], None], run_id: str
    ) -> Agent: ...

    def trace_path(self, run_id: str) -> Path: ...


MakeAssistant = Callable[[Path, ChatModel], Assistant]


def course_assistant(folder: Path, client: ChatModel) -> Assistant:
    """The service's own factory on ``folder`` with ``client`` as its model and the clock fixed at
    ``NOW``.
    """
    from ...service.agents import OfficeAssistant
    from ...service.models import Models
    from ...service.settings import ServiceSettings

    return OfficeAssistant(
        ServiceSettings(db_path=str(folder / "service.sqlite3"), clock=lambda: NOW),
        models=Models(client),
    )


def service_user(role: str, user_id: str = "u_check", name: str = "检查员") -> Any:
    from ...permissions import User

    return User(user_id, role=role, name=name)


@dataclass
class Lab:
    """Scratch folders and the assistant under check."""

    make_assistant: MakeAssistant
    root: Path

    def folder(self, name: str) -> Path:
        return Path(tempfile.mkdtemp(prefix=f"{name}_", dir=self.root))

    def assistant(self, name: str, client: ChatModel) -> Assistant:
        """A fresh assistant (with a fresh office) in its own folder."""
        return self.make_assistant(self.folder(name), client)

    def run(
        self,
        assistant: Assistant,
        name: str,
        request: str,
        *,
        role: str = "行政助理",
        history: Sequence[dict[str, Any]] = (),
        on_event: Callable[[AgentEvent], None] | None = None,
    ) -> tuple[RunResult, str]:
        """One run of ``request`` by a user with ``role``; returns the result and the run id."""
        run_id = f"run_check_{name}"
        agent = assistant(service_user(role), SESSION, on_event or (lambda event: None), run_id)
        return agent.run(request, list(history), run_id=run_id), run_id


def offline(model: str = "course-sim", **options: Any) -> ChatModel:
    """A client of the shared offline server (the strict one: a request that breaks the protocol
    gets a 400).
    """
    from ...llm import ChatClient, connect

    if not options:
        return connect("offline", model=model, quiet=True)
    base = connect("offline", quiet=True)
    return ChatClient(base.base_url, "offline", model, label="离线课程模拟器", **options)


# --------------------------------------------------------------------------- helpers


def table_counts(database: Path) -> dict[str, int]:
    with closing(open_sqlite(database, read_only=True)) as db:
        tables = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {
            table: db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in tables
        }


_EXAMPLE = re.compile(r"(?:例如|比如|e\.g\.)[：:]?\s*(.+)$")
_FILLER = {"integer": 1, "number": 1.0, "boolean": False, "array": [], "object": {}}


def _example(description: str, kind: str) -> tuple[bool, Any]:
    """The example a parameter's description gives ("例如：room_301"), as a value of the schema's
    type.
    """
    match = _EXAMPLE.search(description)
    if not match:
        return False, None
    text = match.group(1).split("；")[0].strip()
    if kind == "string":
        return True, text.split("，")[0].strip()
    try:
        return True, json.loads(text.lower() if kind == "boolean" else text)
    except ValueError:
        return False, None


def example_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a tool from the examples in its parameter descriptions, typed by the schema; a
    required parameter without a usable example gets a plain value of its type."""
    parameters = schema.get("function", schema).get("parameters", {})
    required = set(parameters.get("required") or [])
    arguments: dict[str, Any] = {}
    for name, spec in (parameters.get("properties") or {}).items():
        kind = spec.get("type", "string")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "string")
        found, value = _example(str(spec.get("description", "")), kind)
        if found:
            arguments[name] = value
        elif name in required:
            arguments[name] = _FILLER.get(kind, "示例")
    return arguments


def caller() -> Any:
    """A model that calls the tool the request names ("请调用 book_meeting_room") with its examples,
    then answers in words.
    """
    from ...scripted import FunctionClient, call, calls

    def fn(messages: list[dict[str, Any]], tools: Any) -> ChatResult | str:
        if messages[-1].get("role") == "tool":
            return "好的，已经处理。"
        wanted = str(messages[-1].get("content", "")).split()[-1]
        schema = next((t for t in tools or [] if t["function"]["name"] == wanted), None)
        if schema is None:
            return f"我没有 {wanted} 这个工具。"
        return calls(call(wanted, example_arguments(schema), id=f"call_check_{wanted}"))

    return FunctionClient(fn, max_calls=1000)


def trace_lines(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


# --------------------------------------------------------------------- the items that run something


def check_gated(lab: Lab) -> tuple[bool, str]:
    """Every L2/L3 tool of every role (the course policy's levels), called by a scripted model:
    paused or refused, never run.
    """
    from ...permissions import Level, User
    from ...scenarios.office import ROLE_TABLE, office_policy

    policy = office_policy(audit=None)
    checked, paused, hidden, ran = 0, 0, 0, []
    for role in ROLE_TABLE:
        user = User("u_check", role=role)
        assistant = lab.assistant(f"gate_{role}", caller())
        registry = assistant.office.registry(user)
        for tool in registry:
            level = policy.level_for(user, tool)
            if level is None or level < Level.L2:
                continue
            before = table_counts(assistant.office.db_path)
            result, _ = lab.run(assistant, f"gate_{checked}", f"请调用 {tool.name}", role=role)
            after = table_counts(assistant.office.db_path)
            executed = [r for r in result.tool_calls if r.call.name == tool.name and r.executed]
            checked += 1
            paused += result.stop_reason == "needs_confirmation"
            hidden += not result.tool_calls and not result.pending
            if executed or before != after:
                changed = {t: (before.get(t), n) for t, n in after.items() if before.get(t) != n}
                ran.append(
                    f"{role} 的"
                    f" {tool.name}（{level}）没等确认就执行了"
                    f"{('，数据库变化 ' + str(changed)) if changed else ''}"
                )
    if not checked:
        return False, "没有找到 L2/L3 工具可检查：课程策略里应该有需要确认的工具。"
    if ran:
        return False, "；".join(ran)
    others = checked - paused
    rest = f"，{others} 个没有执行（{hidden} 个工具对这个角色不可见）" if others else ""
    return (
        True,
        (
            f"{checked} 个（角色, L2/L3 工具）组合逐一调用：{paused} 个暂停等待确认{rest}，0"
            " 个没等确认就执行，数据库没有变化"
        ),
    )


def check_max_steps(lab: Lab) -> tuple[bool, str]:
    """``course-sim:repeat_forever`` asks for the same call on every turn: the run must end at
    ``max_steps``.
    """
    result, _ = lab.run(
        lab.assistant("max_steps", offline("course-sim:repeat_forever")),
        "max_steps",
        "明天下午 3 点到 4 点有哪些会议室是空的？",
    )
    steps = len(result.steps)
    if result.stop_reason != "max_steps":
        return (
            False,
            (
                "模型一直调用同一个工具时，"
                f"运行以“{_STOPS.get(result.stop_reason, result.stop_reason)}”结束（{steps} 步），"
                "没有在步数上限处停下。"
            ),
        )
    executed = sum(r.executed for r in result.tool_calls)
    return (
        True,
        (
            f"模型每一步都要同一个调用：第 {steps} 步停在最大步数（max_steps），工具只真正执行了"
            f" {executed} 次，其余由重复调用护栏回答"
        ),
    )


def check_echo(lab: Lab) -> tuple[bool, str]:
    """Parallel calls against the strict offline server: every later request must be accepted (no
    400).
    """
    result, _ = lab.run(lab.assistant("echo", offline()), "echo", "帮我读一下邮件 M001 和邮件 M002")
    widest = max((len(step.reply.tool_calls) for step in result.steps), default=0)
    if result.stop_reason != "final":
        return (
            False,
            f"并行调用之后的请求没有被接受：stop_reason={result.stop_reason!r}，{result.error}",
        )
    if widest < 2:
        return (
            False,
            f"这次运行没有出现并行调用（每步最多 {widest} 个），无法检查回传："
            "换一个有两个意图的请求。",
        )
    tool_ids = [m.get("tool_call_id") for m in result.messages if m.get("role") == "tool"]
    asked = [
        c["id"]
        for m in result.messages
        if m.get("role") == "assistant"
        for c in m.get("tool_calls") or []
    ]
    if tool_ids != asked:
        return False, f"tool 消息和调用对不上：调用 {asked}，tool_call_id {tool_ids}"
    return (
        True,
        (
            f"一步里 {widest} 个并行调用，assistant 消息原样回传、每个 tool_call_id 都有回填，"
            "严格的离线服务端接受了后续请求"
        ),
    )


def check_logs(lab: Lab) -> tuple[bool, str]:
    """A run with one good and one failing tool call: its trace must carry request_id, tool,
    duration and error.
    """
    assistant = lab.assistant("logs", offline())
    result, run_id = lab.run(assistant, "logs", "帮我读一下邮件 M001 和邮件 M404")
    lines = trace_lines(assistant.trace_path(run_id))
    if not lines:
        return False, f"运行 {run_id} 没有留下 trace 文件（{assistant.trace_path(run_id)}）。"
    problems = []
    if any(line.get("request_id") != run_id for line in lines):
        problems.append("有的行没有 request_id（或不是这次运行的 id）")
    results = [line for line in lines if line.get("event") == "tool_result"]
    if not results or any(
        not line.get("tool") or not isinstance(line.get("tool_duration_ms"), (int, float))
        for line in results
    ):
        problems.append("工具结果行缺少 tool 或 tool_duration_ms")
    failed = [line for line in results if line.get("success") is False]
    if not failed or any(not line.get("error") for line in failed):
        problems.append("失败的工具调用没有记下 error")
    calls = [line for line in lines if line.get("event") == "model_call"]
    if not calls or any("duration_ms" not in line or "model" not in line for line in calls):
        problems.append("模型调用行缺少 model 或 duration_ms")
    if not any(line.get("stop_reason") for line in lines):
        problems.append("没有记录退出原因（stop_reason）")
    if problems:
        return False, "；".join(problems)
    return (
        True,
        (
            f"trace 共 {len(lines)} 行，每行都有 request_id={run_id}；{len(results)} 个工具结果带 "
            f"tool"
            f" 和 tool_duration_ms，失败的 {len(failed)} 个带 error；模型调用带 model、"
            f"duration_ms，"
            "结尾有 stop_reason"
        ),
    )


def check_failures(lab: Lab) -> tuple[bool, str]:
    """A model that does not answer in time, and a tool whose database is gone: each run ends with
    words a user can act on.
    """
    slow, _ = lab.run(
        lab.assistant("timeout", offline("course-sim:slow", timeout=0.5, max_retries=0)),
        "timeout",
        "明天下午 3 点到 4 点有哪些会议室是空的？",
    )
    timeout_ok = (
        slow.stop_reason == "error" and bool(slow.error) and "LLM_TIMEOUT" in (slow.error or "")
    )
    assistant = lab.assistant("broken_tool", offline())
    assistant.office.db_path.unlink()  # the database disappears: every office tool now raises
    broken, _ = lab.run(assistant, "broken_tool", "帮我读一下邮件 M001")
    failed = [r for r in broken.tool_calls if not r.result.success]
    answer = broken.answer or ""
    tool_ok = (
        broken.stop_reason == "final"
        and bool(failed)
        and bool(re.search(r"失败|出错|错误|无法|没有成功|不可用|error", answer, re.I))
    )
    said = re.split(r"[：。；]", answer)[
        0
    ]  # the answer's first clause: what a user reads first (the rest quotes the tool's error)
    detail = (
        f"模型超时：运行以“{_STOPS.get(slow.stop_reason, slow.stop_reason)}”结束，"
        f"错误信息“{re.split(r'（模型 |。', slow.error or '')[0]}”；工具异常：{len(failed)}"
        f" 个调用失败，运行以“{_STOPS.get(broken.stop_reason, broken.stop_reason)}”结束，"
        f"回答“{said}……”"
    )
    return timeout_ok and tool_ok, detail


_STOPS = {
    "final": "给出回答",
    "error": "出错",
    "max_steps": "步数用完",
    "timeout": "超时",
    "needs_confirmation": "等待确认",
}


def check_token_budget(lab: Lab) -> tuple[bool, str]:
    """A long session: what is sent must be trimmed to the token budget, and the trace must count
    tokens per model call.
    """
    filler = (
        "请帮我记一下：下周的周会改到周三上午十点，地点仍然在 A301，"
        "会议纪要由张明负责整理并发给全组。"
    )
    history: list[dict[str, Any]] = []
    for n in range(80):
        history += [
            {"role": "user", "content": f"第 {n} 个问题。{filler}"},
            {"role": "assistant", "content": f"好的，记下了第 {n} 条。{filler}"},
        ]
    seen: list[AgentEvent] = []
    assistant = lab.assistant("budget", offline())
    budget = getattr(getattr(assistant, "settings", None), "token_budget", None)
    result, run_id = lab.run(
        assistant,
        "budget",
        "明天下午 3 点到 4 点有哪些会议室是空的？",
        history=history,
        on_event=seen.append,
    )
    trimmed = [e.data for e in seen if e.kind == "memory"]
    lines = [
        line
        for line in trace_lines(assistant.trace_path(run_id))
        if line.get("event") == "model_call"
    ]
    counted = bool(lines) and all(isinstance(line.get("input_tokens"), int) for line in lines)
    if budget is None or not trimmed:
        return (
            False,
            (
                f"{len(history)} 条历史消息原样发给了模型：没有按 token"
                f" 预算裁剪（stop_reason={result.stop_reason!r}）。"
            ),
        )
    over = [t for t in trimmed if t["tokens_after"] > budget]
    if over or not counted:
        return False, (
            f"裁剪后仍超出预算 {budget}：{over}"
            if over
            else "trace 的模型调用行没有记录 input_tokens。"
        )
    first = trimmed[0]
    return (
        True,
        (
            f"token 预算 {budget}：{first['messages_before']} 条消息（约 {first['tokens_before']}"
            f" token）裁剪为 {first['messages_after']} 条（约 {first['tokens_after']} token）；"
            f"trace"
            " 每次模型调用都记录 input_tokens/output_tokens"
        ),
    )


__all__ = [
    "Assistant",
    "Lab",
    "NOW",
    "check_echo",
    "check_failures",
    "check_gated",
    "check_logs",
    "check_max_steps",
    "check_token_budget",
    "course_assistant",
    "example_arguments",
    "offline",
    "service_user",
    "table_counts",
]
