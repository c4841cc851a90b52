"""Two replicas of the service — two uvicorn processes — on one PostgreSQL database.

Each replica is ``service_world``'s service (``pg_server.replica_app``) whose event streams never
poll: only a ``NOTIFY`` from the database wakes them, so a stream that ends at all on replica B, for
a run executed on replica A, was woken across processes. The cumulative-limit test runs the real
office service instead (``pg_server.office_replica_app``), each replica with an office data folder
of its own, as on two hosts. Skipped (in Chinese) where PostgreSQL is not installed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from pg_server import free_port, rows
from service_world import wait_for
from sse_events import numbered, read_events

from handwritten_agent.service import Store
from handwritten_agent.service.runner import RESTART_MESSAGE

TESTS = Path(__file__).parent
PATIENCE = 90.0
"""Seconds a replica may take to start or a run to get somewhere on a loaded machine (a deadline for
hangs, never a measure of speed).
"""


class Replica:
    def __init__(
        self,
        db: str,
        folder: Path,
        *,
        workers: int,
        lease: float,
        app: str = "pg_server:replica_app",
        env: dict[str, str] | None = None,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "HAT_TEST_DB": db,
            "HAT_TEST_WORKERS": str(workers),
            "HAT_TEST_LEASE": str(lease),
            "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
            **(env or {}),
        }
        self.log = (folder / f"replica-{self.port}.log").open("w")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--factory",
                app,
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            env=env,
            cwd=folder,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def ready(self) -> None:
        deadline = time.monotonic() + PATIENCE
        while True:  # bounded by the deadline
            assert self.process.poll() is None, "副本进程启动失败，见日志"
            try:
                if httpx.get(f"{self.url}/v1/me", timeout=5).status_code == 401:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "副本没有在期限内启动"
            time.sleep(0.2)

    def client(self, token: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=PATIENCE
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        self.log.close()


def start_two(db: str, folder: Path, *, workers: int = 2, lease: float = 30.0) -> list[Replica]:
    replicas = [Replica(db, folder, workers=workers, lease=lease) for _ in range(2)]
    for replica in replicas:
        replica.ready()
    return replicas


def add_users(db: str) -> dict[str, str]:
    store = Store(db)
    try:
        _, alice = store.add_user("alice", "行政助理")
        _, root = store.add_user("root", "管理员")
    finally:
        store.close()
    return {"db": db, "alice": alice, "root": root}


@pytest.fixture(scope="module")
def shared(postgres_server, tmp_path_factory):
    """Two replicas on one database, started once for the tests that leave them alive."""
    users = add_users(postgres_server.create_database(migrated=True))
    started = start_two(users["db"], tmp_path_factory.mktemp("replicas"))
    yield users, started
    for replica in started:
        replica.stop()


@pytest.fixture
def users(shared):
    return shared[0]


@pytest.fixture
def replicas(shared):
    return shared[1]


def test_a_run_on_a_streams_live_from_b_resumes_anywhere_and_is_decided_on_b(users, replicas):
    a, b = replicas
    with a.client(users["alice"]) as on_a, b.client(users["alice"]) as on_b:
        run = on_a.post("/v1/runs", json={"session_id": "s", "message": "等 1"}).json()
        streamed = read_events(b.url, on_b, run["id"], timeout=PATIENCE)  # B never polls
        assert [e["event"] for e in streamed][-1] == "end"
        assert streamed[-1]["data"]["status"] == "completed"
        own = numbered(streamed)
        assert [e["id"] for e in own] == list(range(1, len(own) + 1))
        assert {"tool_call", "tool_result", "stop"} <= {e["event"] for e in own}
        # the events table is the truth: Last-Event-ID resumes on either replica alike
        after_a = read_events(a.url, on_a, run["id"], last_id=2, timeout=PATIENCE)
        after_b = read_events(b.url, on_b, run["id"], last_id=2, timeout=PATIENCE)
        assert numbered(after_a) == numbered(after_b) == own[2:]

        paused = on_a.post("/v1/runs", json={"session_id": "s2", "message": "通知王五：交周报"})
        paused_id = paused.json()["id"]
        pending = wait_for(on_a, paused_id, "requires_action", timeout=PATIENCE)["pending"]
        decided = on_b.post(
            f"/v1/runs/{paused_id}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
        )
        assert decided.status_code == 200, decided.text
        done = wait_for(on_a, paused_id, "completed", "failed", timeout=PATIENCE)
        assert done["status"] == "completed" and done["answer"] == "完成：已通知 王五"


def test_twenty_concurrent_duplicates_across_two_replicas_make_one_run(users, replicas):
    clients = [replica.client(users["alice"]) for replica in replicas]
    body = {"session_id": "twenty", "message": "你好，二十个一样的请求"}
    try:
        with ThreadPoolExecutor(20) as pool:
            answers = list(
                pool.map(
                    lambda n: clients[n % 2].post(
                        "/v1/runs", json=body, headers={"Idempotency-Key": "twenty"}
                    ),
                    range(20),
                )
            )
        assert all(answer.status_code in (200, 201) for answer in answers), [
            answer.text for answer in answers
        ]
        ids = {answer.json()["id"] for answer in answers}
        assert len(ids) == 1 and sum(answer.status_code == 201 for answer in answers) == 1
        (run_id,) = ids
        assert wait_for(clients[1], run_id, "completed", timeout=PATIENCE)["answer"]
        assert rows(
            users["db"], "SELECT COUNT(*) FROM runs WHERE message = ?", (body["message"],)
        ) == [(1,)]
    finally:
        for client in clients:
            client.close()


def test_a_replica_killed_mid_tool_call_fails_that_run_without_repeating_it_and_its_queue_runs_on(
    postgres_url, tmp_path
):
    """kill -9 of replica A while its only worker is inside a tool call, with a second run queued
    behind it. After the lease, B takes the queued run and completes it; the interrupted run is
    failed with the restart message and its tool call is not repeated (the course's decision: a
    call whose outcome nobody knows is never run again blindly — the user decides to resubmit).
    """
    users = add_users(postgres_url)
    a, b = start_two(users["db"], tmp_path, workers=1, lease=3.0)
    try:
        with a.client(users["alice"]) as on_a, b.client(users["alice"]) as on_b:
            inside = on_a.post("/v1/runs", json={"session_id": "s", "message": "等 600"}).json()
            queued = on_a.post("/v1/runs", json={"session_id": "s2", "message": "你好"}).json()
            deadline = time.monotonic() + PATIENCE
            # bounded: the run reaches its tool call, or the deadline fails the test
            while "tool_call" not in kinds(users["db"], inside["id"]):
                assert time.monotonic() < deadline, "运行没有走到工具调用"
                time.sleep(0.1)
            assert on_a.get(f"/v1/runs/{queued['id']}").json()["status"] == "queued"
            a.process.send_signal(signal.SIGKILL)
            a.process.wait(timeout=30)

            failed = wait_for(on_b, inside["id"], "failed", "completed", timeout=PATIENCE)
            assert failed["status"] == "failed" and failed["error"] == RESTART_MESSAGE
            done = wait_for(on_b, queued["id"], "completed", "failed", timeout=PATIENCE)
            assert done["status"] == "completed" and done["answer"].startswith("你好")
            seen = kinds(users["db"], inside["id"])
            assert seen.count("tool_call") == 1 and "tool_result" not in seen
            assert seen[-1] == "stop"
            (worker,) = rows(users["db"], "SELECT worker FROM runs WHERE id = ?", (queued["id"],))
            assert worker[0] and not worker[0].startswith(f"w{a.process.pid}_")
    finally:
        a.stop()
        b.stop()


def kinds(db: str, run_id: str) -> list[str]:
    """The kinds of a run's stored events, read from the database (a stream of a run whose replica
    died would wait for it).
    """
    return [
        kind
        for (kind,) in rows(db, "SELECT kind FROM events WHERE run_id = ? ORDER BY seq", (run_id,))
    ]


# ------------------------------------------------------------------ a cumulative limit, two hosts


def sms_message(ids: list[str]) -> str:
    return f"给客户 {'、'.join(ids)} 发短信，内容是：本周五停车场维修"


def sms_sent(hosts: list[Path]) -> int:
    """Text messages in the outboxes of every host's office database, together."""
    total = 0
    for host in hosts:
        ((count,),) = rows(
            str(host / "office" / "office.sqlite"), "SELECT COUNT(*) FROM sms_outbox"
        )
        total += count
    return total


def settled(client: httpx.Client, run_id: str, request_id: str) -> dict:
    """The run once its confirmation ``request_id`` has been applied: completed, failed, or waiting
    for another request.
    """
    deadline = time.monotonic() + PATIENCE
    while True:  # bounded by the deadline
        run = client.get(f"/v1/runs/{run_id}").json()
        if run["status"] in ("completed", "failed", "cancelled") or (
            run["status"] == "requires_action" and [p["id"] for p in run["pending"]] != [request_id]
        ):
            return run
        assert time.monotonic() < deadline, f"运行 {run_id} 没有在期限内处理完确认：{run}"
        time.sleep(0.1)


def test_the_cumulative_sms_limit_holds_across_replicas_on_two_hosts(postgres_url, tmp_path):
    """Two replicas whose office data folders differ (two hosts), one database. A clerk asks for 4
    messages on A and 4 on B (limit 5): each batch alone is L2; both are confirmed at the same
    moment, each on its own replica. One batch is sent; the other has become L3 and waits for the
    approver (the gate's rule for a cumulative limit) — never 8 messages on two confirmations.
    """
    store = Store(postgres_url)
    try:
        _, clerk = store.add_user("张明", "行政助理")
        _, boss = store.add_user("李丽", "行政主管")
    finally:
        store.close()
    hosts = [tmp_path / "host-a", tmp_path / "host-b"]
    replicas = [
        Replica(
            postgres_url,
            tmp_path,
            workers=2,
            lease=30.0,
            app="pg_server:office_replica_app",
            env={"HAT_TEST_DATA": str(host)},
        )
        for host in hosts
    ]
    clerks: list[httpx.Client] = []
    try:
        for replica in replicas:
            replica.ready()
        clerks = [replica.client(clerk) for replica in replicas]
        ids = [f"C00{i}" for i in range(1, 9)]
        runs = [
            on.post("/v1/runs", json={"session_id": f"s{n}", "message": sms_message(batch)}).json()
            for n, (on, batch) in enumerate(zip(clerks, (ids[:4], ids[4:])))
        ]
        waiting = [
            wait_for(on, run["id"], "requires_action", timeout=PATIENCE)["pending"][0]
            for on, run in zip(clerks, runs)
        ]
        assert [p["level"] for p in waiting] == ["L2", "L2"]  # each batch fits the limit alone
        with ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(
                    lambda n: clerks[n].post(
                        f"/v1/runs/{runs[n]['id']}/confirmations/{waiting[n]['id']}",
                        json={"decision": "approve"},
                    ),
                    range(2),
                )
            )
        assert [answer.status_code for answer in answers] == [200, 200], [a.text for a in answers]
        after = [settled(on, run["id"], p["id"]) for on, run, p in zip(clerks, runs, waiting)]
        assert sorted(run["status"] for run in after) == ["completed", "requires_action"], after
        assert sms_sent(hosts) == 4, "两台机器上的副本合起来也不能超过累计上限"
        (held,) = [run for run in after if run["status"] == "requires_action"]
        assert [(p["level"], p["approver_role"]) for p in held["pending"]] == [("L3", "行政主管")]
        assert "超过批量上限 5" in held["pending"][0]["reason"]
        decisions = [
            decision
            for (decision,) in rows(
                postgres_url,
                "SELECT decision FROM audit WHERE tool = ? ORDER BY id",
                ("send_sms_to_customers",),
            )
        ]
        assert decisions.count("confirmed") == 1 and decisions.count("escalated") == 1, decisions

        # the approver decides on the other replica: now the second batch goes out
        other = 1 - after.index(held)
        with replicas[other].client(boss) as approver:
            queue = approver.get("/v1/confirmations").json()["data"]
            assert [item["request"]["id"] for item in queue] == [held["pending"][0]["id"]]
            decided = approver.post(
                f"/v1/runs/{held['id']}/confirmations/{held['pending'][0]['id']}",
                json={"decision": "approve"},
            )
            assert decided.status_code == 200, decided.text
        done = settled(clerks[other], held["id"], held["pending"][0]["id"])
        assert done["status"] == "completed", done
        assert sms_sent(hosts) == 8
    finally:
        for on in clerks:
            on.close()
        for replica in replicas:
            replica.stop()
