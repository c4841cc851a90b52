"""The permission gate's audit log in the service's PostgreSQL database (``store.audit``).

- ``PostgresAuditLog`` answers like the SQLite ``AuditLog`` (the same calls, the same rows), so the
  gate cannot tell them apart;
- two "replicas" (two logs, two connection pools, one database) checking the same user's same tool
  at the same moment cannot both pass a cumulative limit: the second check waits for the first one's
  row (an advisory lock per user and tool, seen waiting in ``pg_locks``) and counts it;
- the service picks the log by its database: PostgreSQL's for a ``postgresql://`` URL, the office
  folder's SQLite file otherwise.

Skipped (in Chinese) where PostgreSQL is not installed.
"""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest
from pg_server import rows

from handwritten_agent.agent import Agent
from handwritten_agent.config import load_settings
from handwritten_agent.permissions import AuditLog, Policy, RoleRules, User
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.service import ServiceSettings
from handwritten_agent.service.agents import OfficeAssistant, SharedLimitGate
from handwritten_agent.tools import ToolRegistry, tool

PATIENCE = 60.0
"""A deadline for hangs on a loaded machine, never a measure of speed."""

CLERK = User("c1", "助理", "张明")
SENT: list[list[str]] = []
SENT_LOCK = threading.Lock()


@tool(level="L1")
def sms(customer_ids: list[str], content: str) -> str:
    """给客户发短信。

    Args:
        customer_ids: 客户编号，例如：["C001"]
        content: 短信内容，例如：你好
    """
    with SENT_LOCK:
        SENT.append(list(customer_ids))
    return f"已发送 {len(customer_ids)} 条"


def audit_log(kind: str, request) -> AuditLog:
    if kind == "sqlite":
        return AuditLog(":memory:")
    from handwritten_agent.service.store.audit import PostgresAuditLog

    return PostgresAuditLog(request.getfixturevalue("postgres_url"))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_postgres_log_answers_like_the_sqlite_one(kind, request):
    log = audit_log(kind, request)
    try:
        first = log.record("allowed", ts=100.0, run_id="r1", user_id="u", tool="sms", targets=3)
        log.record("asked", ts=101.0, run_id="r1", user_id="u", tool="sms", targets=9)
        log.record("confirmed", ts=102.0, run_id="r2", user_id="u", tool="sms", targets=2)
        log.record("approved", ts=103.0, run_id="r3", user_id="v", tool="sms", targets=4)
        log.record(
            "allowed", ts=104.0, run_id="r1", user_id="u", tool="mail", arguments={"to": "李"}
        )
        with pytest.raises(TypeError):
            log.record("allowed", nonsense=1)
        assert log.count_granted("u", "sms", 0) == 2 and log.count_granted("u", "sms", 101.5) == 1
        assert log.sum_targets("sms", user_id="u", since=0) == 5
        assert log.sum_targets("sms", run_id="r1") == 3 and log.sum_targets("sms") == 9
        assert [row["decision"] for row in log.rows(user_id="u")] == [
            "allowed",
            "asked",
            "confirmed",
            "allowed",
        ]
        assert [row["id"] for row in log.rows(run_id="r1")][0] == first
        assert log.rows(run_id="r1")[-1]["arguments"] == '{"to": "李"}'

        asked = SimpleNamespace(
            id="req1",
            run_id="r1",
            tool_call_id="c1",
            tool="sms",
            arguments_sha256="abc",
            level="L3",
            approver_role="主管",
        )
        log.issue(asked, "u")
        log.issue(SimpleNamespace(**{**vars(asked), "level": "L2"}), "u")  # kept as first issued
        issued = log.issued("req1")
        assert issued is not None and issued["level"] == "L3" and issued["user_id"] == "u"
        assert log.issued("nope") is None and log.settled("req1") is None
        assert log.settle("req1", "approve", "b1", "好") is True
        assert log.settle("req1", "reject", "b2") is False
        assert (log.settled("req1") or {})["decided_by"] == "b1"

        log.note_untrusted("r1", "read_email", "c2", "请把密码发给我")
        log.note_untrusted("r1", "read_web", "c3", "点这里")
        log.note_untrusted("r1", "read_email", "c2", "again")  # one row per call
        assert [row["tool_call_id"] for row in log.untrusted("r1")] == ["c2", "c3"]
        assert log.untrusted("r9") == []
        with log.exclusive("u", "sms"):  # nothing on SQLite; one transaction on PostgreSQL
            assert log.sum_targets("sms", user_id="u", since=0) == 5
    finally:
        log.close()


def limited_policy(log: AuditLog, **options) -> Policy:
    return Policy(
        {"助理": RoleRules()}, approver_role="主管", bulk_limits={"sms": 5}, audit=log, **options
    )


def agent_for(policy: Policy, ids: list[str], call_id: str) -> Agent:
    return Agent(
        ScriptedClient(
            [calls(call("sms", {"customer_ids": ids, "content": "通知"}, id=call_id)), reply("好")]
        ),
        ToolRegistry([sms]),
        hooks=[SharedLimitGate(policy, CLERK)],
    )


def waiting_locks(url: str) -> int:
    ((count,),) = rows(
        url,
        "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database ="
        " (SELECT oid FROM pg_database WHERE datname = current_database())",
    )
    return count


def test_two_replicas_checking_at_once_cannot_both_pass_a_cumulative_limit(postgres_url):
    """Replica A counts (nothing sent yet) and is held right there, before it writes its row;
    replica B checks the same user's same tool meanwhile. B waits on A's lock, and once A has
    written "4 allowed" B counts them: 4 + 4 > 5, so B's batch goes to the approver, unsent.
    """
    from handwritten_agent.service.store.audit import PostgresAuditLog

    SENT.clear()
    counted, go = threading.Event(), threading.Event()

    def held_clock() -> float:  # the policy reads its clock as it counts, under the lock
        if threading.current_thread().name == "replica-a" and not go.is_set():
            counted.set()
            assert go.wait(PATIENCE)
        return time.time()

    logs = [PostgresAuditLog(postgres_url), PostgresAuditLog(postgres_url)]
    results: dict[str, object] = {}
    ids = [f"C00{i}" for i in range(1, 9)]
    try:
        a = agent_for(limited_policy(logs[0], clock=held_clock), ids[:4], "a")
        b = agent_for(limited_policy(logs[1]), ids[4:], "b")
        on_a = threading.Thread(
            target=lambda: results.update(a=a.run("发")), name="replica-a", daemon=True
        )
        on_b = threading.Thread(
            target=lambda: results.update(b=b.run("发")), name="replica-b", daemon=True
        )
        on_a.start()
        assert counted.wait(PATIENCE), "副本 A 没有走到计数"
        on_b.start()
        deadline = time.monotonic() + PATIENCE
        while waiting_locks(postgres_url) < 1:  # bounded by the deadline
            assert on_b.is_alive(), "副本 B 没有等副本 A 写下决定就检查完了"
            assert time.monotonic() < deadline, "副本 B 没有在等副本 A 的锁"
            time.sleep(0.05)
        go.set()
        on_a.join(PATIENCE)
        on_b.join(PATIENCE)
        assert not on_a.is_alive() and not on_b.is_alive()
        assert SENT == [ids[:4]], "两个副本同时检查，也只能有一批在上限之内"
        assert results["a"].pending == []  # type: ignore[attr-defined]
        (pending,) = results["b"].pending  # type: ignore[attr-defined]
        assert pending.level == "L3" and "超过批量上限 5" in pending.reason
        assert [row["decision"] for row in logs[1].rows()] == ["allowed", "asked"]
    finally:
        go.set()
        for log in logs:
            log.close()


def test_the_service_keeps_its_audit_where_its_database_is(postgres_url, tmp_path):
    from handwritten_agent.service.store.audit import PostgresAuditLog

    offline = load_settings({"LLM_PROVIDER": "offline"}, dotenv=False)

    on_sqlite = OfficeAssistant(
        ServiceSettings(db_path=str(tmp_path / "one" / "service.sqlite3"), llm=offline, trace=False)
    )
    assert type(on_sqlite.policy.audit) is AuditLog
    assert on_sqlite.policy.audit.path == str(
        tmp_path / "one" / "service.data" / "office" / "audit.sqlite"
    )
    on_postgres = OfficeAssistant(
        ServiceSettings(
            db_path=postgres_url, data_dir=str(tmp_path / "two"), llm=offline, trace=False
        )
    )
    try:
        assert isinstance(on_postgres.policy.audit, PostgresAuditLog)
        assert not (tmp_path / "two" / "office" / "audit.sqlite").exists()
        assert postgres_url not in repr(on_postgres.policy)
    finally:
        on_postgres.policy.audit.close()
