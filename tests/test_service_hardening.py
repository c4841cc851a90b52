"""The service against what an attack tried: races, dead processes, odd bytes, odd headers, second
decisions, overlapping runs of one session, removed users. Each test here failed on the service
before its fix.

The world is ``service_world``'s (a fake gate and a reactive fake model); the HTTP, SQLite and
threads are real.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import httpx
import pytest
from pg_server import rows
from service_world import SENT, clear_sent, make_app, wait_for  # noqa: F401  (fixtures)
from sse_events import read_events

from handwritten_agent.course.background import BackgroundServer
from handwritten_agent.service import Store

TERMINAL = ("completed", "failed", "cancelled")


def raw_requests(
    url: str, requests: list[tuple[str, str, bytes, dict[str, str]]]
) -> list[tuple[int, dict]]:
    """Send ``requests`` one after another on ONE keep-alive connection (never reopened); returns
    (status, JSON body) each.
    """
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    # a connection the server closed is an error here, not silently reopened
    connection.auto_open = 0
    connection.connect()
    answers = []
    try:
        for method, path, body, headers in requests:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            answers.append((response.status, json.loads(response.read() or b"null")))
    finally:
        connection.close()
    return answers


# ----------------------------------------------------- cancel races


def test_a_run_cancelled_as_it_starts_ends_cancelled_not_failed(service):
    alice = service["alice"]
    for n in range(12):
        run = alice.post("/v1/runs", json={"session_id": f"c{n}", "message": "等 0.2"}).json()
        alice.post(f"/v1/runs/{run['id']}/cancel")
        done = wait_for(alice, run["id"], *TERMINAL)
        assert (done["status"], done["stop_reason"]) == ("cancelled", "cancelled"), done
        assert "StopRun" not in (done["error"] or "")
        events = read_events(service["url"], alice, run["id"])
        stops = [e for e in events if e["event"] == "stop"]
        assert len(stops) == 1 and stops[0]["data"]["stop_reason"] == "cancelled", events


def test_approve_racing_cancel_ends_cancelled_or_completed_never_failed(service):
    alice = service["alice"]
    for n in range(8):
        run = alice.post(
            "/v1/runs", json={"session_id": f"r{n}", "message": f"通知张三：第 {n} 次"}
        ).json()
        pending = wait_for(alice, run["id"], "requires_action")["pending"]
        with ThreadPoolExecutor(2) as pool:
            approving = pool.submit(
                alice.post,
                f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}",
                json={"decision": "approve"},
            )
            cancelling = pool.submit(alice.post, f"/v1/runs/{run['id']}/cancel")
            assert cancelling.result().status_code == 200 and approving.result().status_code in (
                200,
                409,
            )
        done = wait_for(alice, run["id"], *TERMINAL)
        assert done["status"] in ("cancelled", "completed"), done
        assert "StopRun" not in (done["error"] or "")


# ----------------------------------------------------- runs of a dead process


def test_a_live_process_takes_over_the_queued_runs_of_a_dead_one_within_the_lease(tmp_path):
    db = tmp_path / "shared.sqlite3"
    app = make_app(
        db, lease_seconds=0.6, heartbeat_seconds=0.1
    )  # this process is alive; it started before the other died
    store: Store = app.state.store
    user, _ = store.add_user("alice", "行政助理")
    try:
        orphan, _ = store.create_run(
            user, "s", "你好"
        )  # queued by a process that died before a thread of it picked the run up
        with sqlite3.connect(db) as raw:
            raw.execute(
                "UPDATE runs SET worker = 'w_gone', heartbeat = ? WHERE id = ?",
                (time.time() - 60, orphan["id"]),
            )
        deadline = time.monotonic() + 5
        while store.get_run(orphan["id"])["status"] not in TERMINAL and time.monotonic() < deadline:
            time.sleep(0.05)
        done = store.get_run(orphan["id"])
        assert (done["status"], done["answer"], done["worker"]) == (
            "completed",
            "你好！这是第 1 个问题",
            app.state.manager.worker,
        )
    finally:
        app.state.manager.shutdown(wait=True)


def test_queued_runs_of_a_live_process_are_left_to_it(tmp_path):
    db = tmp_path / "shared.sqlite3"
    busy = make_app(db, workers=1, lease_seconds=0.6, heartbeat_seconds=0.1)
    other = make_app(db, lease_seconds=0.6, heartbeat_seconds=0.1)
    store: Store = busy.state.store
    user, _ = store.add_user("alice", "行政助理")
    try:
        first, _ = store.create_run(user, "a", "等 1.5")
        second, _ = store.create_run(user, "b", "你好")
        busy.state.manager.submit(first["id"])
        busy.state.manager.submit(
            second["id"]
        )  # waits in busy's queue for 1.5 s, much longer than the 0.6 s lease
        busy.state.manager.wait(second["id"], timeout=10)
        assert store.get_run(second["id"])["worker"] == busy.state.manager.worker
    finally:
        busy.state.manager.shutdown(wait=True)
        other.state.manager.shutdown(wait=True)


# ----------------------------------------------------- bytes that are not text


@pytest.mark.parametrize("field", ["message", "session_id"])
def test_a_lone_surrogate_in_a_run_is_a_422_and_the_connection_stays_usable(service, field):
    body = {"session_id": "s", "message": "你好"}
    body[field] = "前\ud800后"
    token = service["alice"].headers["authorization"]
    headers = {"Authorization": token, "Content-Type": "application/json"}
    answers = raw_requests(
        service["url"],
        [
            ("POST", "/v1/runs", json.dumps(body).encode(), headers),
            ("GET", "/v1/runs/run_none", b"", headers),
        ],
    )
    (status, error), (after, missing) = answers
    assert (
        status == 422
        and error["error"]["type"] == "invalid_request"
        and error["error"]["details"][0]["field"] == field
    )
    assert after == 404 and missing["error"]["type"] == "not_found"
    assert rows(service["db"], "SELECT COUNT(*) FROM runs") == [(0,)]


def test_a_lone_surrogate_in_a_decision_reason_is_a_422_and_decides_nothing(service):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "通知李四：周五聚餐"}).json()
    pending = wait_for(alice, run["id"], "requires_action")["pending"]
    body = json.dumps({"decision": "reject", "reason": "不要\udfff"}).encode()
    response = alice.post(f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}", content=body)
    assert (
        response.status_code == 422 and response.json()["error"]["details"][0]["field"] == "reason"
    )
    assert alice.get(f"/v1/runs/{run['id']}").json()["status"] == "requires_action"


@pytest.mark.parametrize(
    "content",
    [
        b'{"session_id": "s", "message": "hi", "n": 1'
        + b"0" * 5000
        + b"}",  # past the interpreter's int-string digit limit
        b"\xff\xfe not utf-8",
        '{"session_id": "s", "message": "半个字'.encode()[:-2]
        + b'"}',  # a UTF-8 sequence cut in the middle
    ],
)
def test_a_400_speaks_our_words_not_the_interpreters(tmp_path, content):
    app = make_app(tmp_path / "s.sqlite3", max_body_bytes=64 * 1024)
    _, token = app.state.store.add_user("alice", "行政助理")
    try:
        with BackgroundServer(app) as server:
            response = httpx.post(
                f"{server.url}/v1/runs",
                content=content,
                headers={"content-type": "application/json", "Authorization": f"Bearer {token}"},
            )
    finally:
        app.state.manager.shutdown(wait=True)
    assert response.status_code == 400 and response.json()["error"]["type"] == "invalid_json", (
        response.text
    )
    message = response.json()["error"]["message"]
    assert not any(
        word in message
        for word in ("codec", "limit", "digits", "set_int_max_str_digits", "byte", "position")
    ), message
    assert "JSON" in message


# ----------------------------------------------------- Last-Event-ID


@pytest.mark.parametrize(
    "value", ["²".encode("latin-1"), "1" * 23, "9" * 5000, "-1", "1e3", "3 4", "٣".encode()]
)
def test_an_unusable_last_event_id_is_a_400_not_a_500_or_a_cut_stream(service, value):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "你好"}).json()
    wait_for(alice, run["id"], "completed")
    response = alice.get(f"/v1/runs/{run['id']}/events", headers={"Last-Event-ID": value})
    assert response.status_code == 400, response.text
    assert (
        response.json()["error"]["type"] == "invalid_last_event_id"
        and "Last-Event-ID" in response.json()["error"]["message"]
    )


def test_a_usable_last_event_id_resumes_and_a_large_one_gives_only_the_end(service):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "你好"}).json()
    wait_for(alice, run["id"], "completed")
    full = read_events(service["url"], alice, run["id"])
    assert [
        e["id"]
        for e in read_events(service["url"], alice, run["id"], last_id=2)
        if e["event"] != "end"
    ] == [e["id"] for e in full[2:] if e["event"] != "end"]
    assert [e["event"] for e in read_events(service["url"], alice, run["id"], last_id=10**17)] == [
        "end"
    ]


# ----------------------------------------------------- decisions


def test_a_different_decision_on_a_decided_request_is_409_and_the_same_one_replays(service):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "通知张三：周会"}).json()
    pending = wait_for(alice, run["id"], "requires_action")["pending"]
    url = f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}"
    assert alice.post(url, json={"decision": "approve"}).status_code == 200
    conflict = alice.post(url, json={"decision": "reject", "reason": "改主意了"})
    assert conflict.status_code == 409 and conflict.json()["error"]["type"] == "already_decided"
    assert "批准" in conflict.json()["error"]["message"]
    again = alice.post(url, json={"decision": "approve"})
    assert again.status_code == 200 and again.json()["replayed"] is True
    wait_for(alice, run["id"], "completed")
    assert SENT == [("张三", "周会")]


def test_a_second_approver_gets_409_already_decided_by_the_first_not_404(service):
    store: Store = service["app"].state.store
    _, token = store.add_user("root2", "管理员")
    alice, admin, bob = service["alice"], service["admin"], service["bob"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "通知全体：下午停电"}).json()
    pending = wait_for(alice, run["id"], "requires_action")["pending"]
    url = f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}"
    with httpx.Client(
        base_url=service["url"], headers={"Authorization": f"Bearer {token}"}
    ) as second:
        assert (
            second.get("/v1/confirmations").json()["data"][0]["run_id"] == run["id"]
        )  # it was in their queue too
        approved = admin.post(url, json={"decision": "approve"})
        assert approved.status_code == 200
        assert approved.json()["decision"]["decided_by_id"] == admin.get("/v1/me").json()["id"]
        for decision in ("approve", "reject"):
            late = second.post(url, json={"decision": decision, "reason": "晚了"})
            assert late.status_code == 409 and late.json()["error"]["type"] == "already_decided"
            assert "已经由 root（" in late.json()["error"]["message"]
    assert (
        bob.post(url, json={"decision": "approve"}).status_code == 404
    )  # not theirs to see, decided or not
    wait_for(alice, run["id"], "completed")
    assert SENT == [("全体", "下午停电")]


def test_the_owner_may_reject_their_own_l3_request_but_not_approve_it(service):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "通知全体：下午停电"}).json()
    pending = wait_for(alice, run["id"], "requires_action")["pending"]
    url = f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}"
    assert alice.post(url, json={"decision": "approve"}).status_code == 403
    assert alice.post(url, json={"decision": "reject", "reason": "发错了"}).status_code == 200
    assert (
        wait_for(alice, run["id"], "completed")["answer"] == "没有完成：用户拒绝了此操作：发错了"
        and SENT == []
    )


# ----------------------------------------------------- a session's history


def test_overlapping_runs_of_one_session_both_stay_in_its_history(service):
    alice = service["alice"]
    slow = alice.post("/v1/runs", json={"session_id": "s", "message": "等 0.5"}).json()
    fast = alice.post("/v1/runs", json={"session_id": "s", "message": "你好"}).json()
    wait_for(alice, slow["id"], "completed")
    wait_for(alice, fast["id"], "completed")
    third = wait_for(
        alice,
        alice.post("/v1/runs", json={"session_id": "s", "message": "还在吗"}).json()["id"],
        "completed",
    )
    assert third["answer"].startswith("你好！这是第 3 个问题"), third["answer"]


def test_a_paused_run_that_resumes_after_the_user_kept_talking_keeps_both(service):
    alice = service["alice"]
    paused = alice.post("/v1/runs", json={"session_id": "s", "message": "通知张三：周会"}).json()
    pending = wait_for(alice, paused["id"], "requires_action")["pending"]
    chat = wait_for(
        alice,
        alice.post("/v1/runs", json={"session_id": "s", "message": "你好"}).json()["id"],
        "completed",
    )
    assert (
        chat["answer"] == "你好！这是第 1 个问题"
    )  # the paused exchange is not finished: not in the history yet
    alice.post(
        f"/v1/runs/{paused['id']}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
    )
    wait_for(alice, paused["id"], "completed")
    third = wait_for(
        alice,
        alice.post("/v1/runs", json={"session_id": "s", "message": "还有吗"}).json()["id"],
        "completed",
    )
    assert third["answer"] == "你好！这是第 3 个问题，上一个是“通知张三：周会”"


# ----------------------------------------------------- removing a user


def test_users_remove_revokes_the_token_cancels_what_waits_and_keeps_the_runs(service):
    alice, admin = service["alice"], service["admin"]
    l3 = alice.post("/v1/runs", json={"session_id": "s", "message": "通知全体：下午停电"}).json()
    l2 = alice.post("/v1/runs", json={"session_id": "s2", "message": "通知李四：周五聚餐"}).json()
    done = alice.post("/v1/runs", json={"session_id": "s3", "message": "你好"}).json()
    pending = wait_for(alice, l3["id"], "requires_action")["pending"]
    wait_for(alice, l2["id"], "requires_action")
    wait_for(alice, done["id"], "completed")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "users",
            "remove",
            "alice",
            "--db",
            str(service["db"]),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "alice" in out.stdout and "2 个" in out.stdout and "Traceback" not in out.stderr
    assert alice.get(f"/v1/runs/{l3['id']}").status_code == 401
    approve = admin.post(
        f"/v1/runs/{l3['id']}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
    )
    assert approve.status_code == 409 and approve.json()["error"]["type"] == "not_waiting"
    assert admin.get("/v1/confirmations").json()["data"] == [] and SENT == []
    statuses = dict(rows(service["db"], "SELECT id, status FROM runs"))
    assert statuses == {
        l3["id"]: "cancelled",
        l2["id"]: "cancelled",
        done["id"]: "completed",
    }  # kept, not deleted
    store: Store = service["app"].state.store
    assert "alice" not in [user.name for user in store.users()]
    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "users",
            "remove",
            "alice",
            "--db",
            str(service["db"]),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 1 and "没有" in again.stderr and "Traceback" not in again.stderr


def test_a_removed_user_can_be_added_again_with_a_new_token(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    user, token = store.add_user("张三", "行政助理")
    store.create_run(user, "s", "你好")
    store.remove_user("张三")
    assert (
        store.user_for_token(token) is None and store.user(user.id).name == "张三"
    )  # old runs still say whose they were
    again, new_token = store.add_user("张三", "管理员")
    assert again.id != user.id and store.user_for_token(new_token) == again


# ----------------------------------------------------- choosing the model


@pytest.mark.parametrize("how", ["--model", "--env-file"])
def test_service_takes_the_model_from_the_command_line_or_an_env_file(tmp_path, how):
    import os
    import re
    import signal

    db = tmp_path / "cli.sqlite3"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LLM_PROVIDER": "offline",
        "HOME": str(tmp_path),
    }
    add = subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "users",
            "add",
            "张明",
            "--role",
            "行政助理",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    token = add.stdout.strip().splitlines()[-1]
    (tmp_path / "other.env").write_text(
        "LLM_FALLBACK_MODEL=course-sim:gullible\n", encoding="utf-8"
    )  # not the .env of cwd
    choice = (
        ["--model", "course-sim:gullible"]
        if how == "--model"
        else ["--env-file", str(tmp_path / "other.env")]
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "service",
            "--port",
            "0",
            "--db",
            str(db),
            *choice,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        line = process.stdout.readline()
        if (
            how == "--env-file"
        ):  # the file's fallback model is read (the offline primary keeps its own name)
            assert "模型 course-sim，备用 course-sim:gullible" in line, line
            return
        assert "模型 course-sim:gullible" in line, line
        url = re.search(r"http://[\d.]+:\d+", line).group(0)
        with httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=20
        ) as client:
            run = client.post("/v1/runs", json={"session_id": "s", "message": "你好"}).json()
            wait_for(client, run["id"], "completed", timeout=30)
            models = {
                e["data"]["model"]
                for e in read_events(url, client, run["id"])
                if e["event"] == "model_call"
            }
        assert models == {"course-sim:gullible"}
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
