"""A small world for the service tests: one side-effect tool behind a fake gate, a reactive fake
model, the app over a SQLite file.

- ``send_notice`` records what it "sent" in ``SENT``; ``wait_a_bit`` sleeps (to catch a run while it
  runs);
- ``NoticeGate``: notices to "全体" need the 管理员 role (L3), other notices the owner's
  confirmation (L2);
- ``model`` reads the latest user message ("通知 X：Y", "等 N", anything else is a greeting that
  counts earlier questions);
- ``make_app(db)`` the service over that world; the ``service`` fixture runs it on a free port with
  users alice, bob (行政助理) and root (管理员), and an httpx client for each.
"""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.confirmation import ConfirmationRequest, arguments_sha256
from handwritten_agent.course.background import BackgroundServer
from handwritten_agent.hooks import HookContext
from handwritten_agent.messages import ToolCall
from handwritten_agent.run import NeedsConfirmation
from handwritten_agent.scripted import FunctionClient, call, calls
from handwritten_agent.service import ServiceSettings, Store, create_app
from handwritten_agent.service.runner import RunManager
from handwritten_agent.tools import ToolRegistry, ToolResult, tool

# --------------------------------------------------------- a small world: one side effect, one gate

SENT: list[tuple[str, str]] = []
SENT_LOCK = threading.Lock()


@tool
def send_notice(to: str, text: str) -> str:
    """给某人发送一条通知。

    Args:
        to: 收件人，例如：张三
        text: 通知内容，例如：明天开会
    """
    with SENT_LOCK:
        SENT.append((to, text))
    return f"已通知 {to}"


@tool
def wait_a_bit(seconds: float) -> str:
    """等待几秒（测试用）。

    Args:
        seconds: 秒数，例如：0.2
    """
    time.sleep(seconds)
    return "ok"


class NoticeGate:
    """Notices to "全体" need the 管理员 role; other notices need the owner's confirmation; the rest
    run.
    """

    def check_call(self, call: ToolCall, context: HookContext) -> ToolResult | None:
        if call.name != "send_notice":
            return None
        if context.decision is None:
            everyone = call.args.get("to") == "全体"
            raise NeedsConfirmation(
                ConfirmationRequest(
                    id=f"req_{call.id}",
                    run_id=context.run_id,
                    tool_call_id=call.id,
                    tool=call.name,
                    arguments=call.args,
                    arguments_sha256=arguments_sha256(call),
                    level="L3" if everyone else "L2",
                    approver_role="管理员" if everyone else None,
                    summary=f"将通知 {call.args.get('to')}：{call.args.get('text')}",
                )
            )
        verdict, reason = context.decision
        return None if verdict == "approve" else ToolResult.fail(f"用户拒绝了此操作：{reason}")


def model(messages: list[dict], tools: Any) -> Any:
    """Reads the latest user message: "通知 X：Y" → send_notice(X, Y); "等 N" → wait_a_bit(N); after
    tool results it answers.
    """
    last = messages[-1]
    if last["role"] == "tool":
        results = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
        final = results[-1]
        return f"完成：{final['data']}" if final["success"] else f"没有完成：{final['error']}"
    text = last["content"]
    if match := re.match(r"通知(\S+?)：(.+)", text):
        return calls(
            call(
                "send_notice",
                {"to": match.group(1), "text": match.group(2)},
                id=f"call_{abs(hash(text)) % 10**8}",
            )
        )
    if match := re.match(r"等 ([\d.]+)", text):
        return calls(call("wait_a_bit", {"seconds": float(match.group(1))}, id="call_wait"))
    earlier = [m["content"] for m in messages if m["role"] == "user"][:-1]
    return f"你好！这是第 {len(earlier) + 1} 个问题" + (
        f"，上一个是“{earlier[-1]}”" if earlier else ""
    )


def make_app(db: Path, *, max_body_bytes: int = 4096, **options: Any):
    store = Store(db)
    registry = ToolRegistry([send_notice, wait_a_bit])

    def make_agent(user, session_id, on_event, run_id):
        return Agent(FunctionClient(model), registry, on_event=on_event, hooks=[NoticeGate()])

    manager = RunManager(
        store,
        make_agent,
        lambda row, decider: (row["decision"], row["reason"]),
        **{"workers": 4, **options},
    )
    return create_app(
        ServiceSettings(
            db_path=str(db), max_body_bytes=max_body_bytes, sse_poll_seconds=0.02, sse_max_idle=5
        ),
        store=store,
        manager=manager,
    )


@pytest.fixture(autouse=True)
def clear_sent():
    SENT.clear()


@pytest.fixture
def service(tmp_path):
    db = tmp_path / "service.sqlite3"
    app = make_app(db)
    store: Store = app.state.store
    alice, alice_token = store.add_user("alice", "行政助理")
    bob, bob_token = store.add_user("bob", "行政助理")
    admin, admin_token = store.add_user("root", "管理员")
    with BackgroundServer(app) as server:
        clients = {
            name: httpx.Client(
                base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=10
            )
            for name, token in (("alice", alice_token), ("bob", bob_token), ("admin", admin_token))
        }
        yield {"url": server.url, "app": app, "db": db, **clients}
        for client in clients.values():
            client.close()
        app.state.manager.shutdown(wait=True)


def wait_for(
    client: httpx.Client, run_id: str, *statuses: str, timeout: float = 10
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = client.get(f"/v1/runs/{run_id}").json()
        if run["status"] in statuses:
            return run
        time.sleep(0.02)
    raise AssertionError(f"run {run_id} never reached {statuses}: {run}")
