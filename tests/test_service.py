"""The Day 7 service over real HTTP: uvicorn on a free port, httpx as the client, a SQLite file in
tmp_path.

The model here is a reactive fake (``FunctionClient``, see ``service_world``) so each test controls
exactly which tool is called; the service, its database, its threads and its HTTP are all real.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from pg_server import execute, rows
from service_world import (  # noqa: F401  (fixtures; ``service`` is conftest's, on both stores)
    SENT,
    clear_sent,
    make_app,
    model,
    send_notice,
    wait_a_bit,
    wait_for,
)
from sse_events import numbered, read_events

from handwritten_agent.agent import Agent
from handwritten_agent.course.background import BackgroundServer
from handwritten_agent.scripted import FunctionClient
from handwritten_agent.service import Store
from handwritten_agent.service.runner import RunManager
from handwritten_agent.tools import ToolRegistry

# ----------------------------------------------------- users and auth


def test_users_add_prints_the_token_once_on_the_last_line_and_stores_only_its_hash(tmp_path):
    db = tmp_path / "cli.sqlite3"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "users",
            "add",
            "王五",
            "--role",
            "管理员",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    token = out.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"hat_[A-Za-z0-9_-]{40,}", token)
    user = Store(db).user_for_token(token)
    assert user is not None and (user.name, user.role) == ("王五", "管理员")
    assert token.encode() not in db.read_bytes() and Store(db).user_for_token(token + "x") is None
    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "users",
            "add",
            "王五",
            "--role",
            "管理员",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        again.returncode == 1 and "已经有名为" in again.stderr and "Traceback" not in again.stderr
    )


def test_requests_without_a_valid_token_are_401(service):
    response = httpx.post(f"{service['url']}/v1/runs", json={"session_id": "s", "message": "你好"})
    assert response.status_code == 401 and response.json()["error"]["type"] == "unauthorized"
    response = httpx.get(
        f"{service['url']}/v1/runs/run_x", headers={"Authorization": "Bearer nope"}
    )
    assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"


# ----------------------------------------------------- runs


def test_a_run_completes_and_the_session_remembers_earlier_turns(service):
    alice = service["alice"]
    first = alice.post("/v1/runs", json={"session_id": "s1", "message": "你好"})
    assert first.status_code == 201 and first.json()["status"] in ("queued", "running", "completed")
    done = wait_for(alice, first.json()["id"], "completed")
    assert done["answer"] == "你好！这是第 1 个问题" and done["stop_reason"] == "final"
    second = wait_for(
        alice,
        alice.post("/v1/runs", json={"session_id": "s1", "message": "再问一次"}).json()["id"],
        "completed",
    )
    assert second["answer"] == "你好！这是第 2 个问题，上一个是“你好”"
    other_session = wait_for(
        alice,
        alice.post("/v1/runs", json={"session_id": "s2", "message": "新会话"}).json()["id"],
        "completed",
    )
    assert other_session["answer"] == "你好！这是第 1 个问题"


def test_another_users_run_is_404_everywhere(service):
    run = (
        service["alice"]
        .post("/v1/runs", json={"session_id": "s", "message": "通知张三：明天开会"})
        .json()
    )
    wait_for(service["alice"], run["id"], "requires_action")
    bob = service["bob"]
    for response in (
        bob.get(f"/v1/runs/{run['id']}"),
        bob.get(f"/v1/runs/{run['id']}/events"),
        bob.post(f"/v1/runs/{run['id']}/cancel"),
        bob.post(f"/v1/runs/{run['id']}/confirmations/{run['id']}", json={"decision": "approve"}),
    ):
        assert response.status_code == 404, response.text
        assert response.json()["error"]["type"] == "not_found"
    pending = service["alice"].get(f"/v1/runs/{run['id']}").json()["pending"]
    assert (
        bob.post(
            f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
        ).status_code
        == 404
    )
    assert SENT == [] and bob.get("/v1/runs/run_doesnotexist").status_code == 404


# ----------------------------------------------------- idempotency


def test_twenty_concurrent_duplicates_create_one_run_and_send_once(service):
    alice = service["alice"]
    body = {"session_id": "s", "message": "通知张三：明天 9 点开会"}

    def post(_: int) -> httpx.Response:
        return alice.post("/v1/runs", json=body, headers={"Idempotency-Key": "key-20"})

    with ThreadPoolExecutor(20) as pool:
        responses = list(pool.map(post, range(20)))
    assert sorted(r.status_code for r in responses) == [200] * 19 + [201]
    assert len({r.json()["id"] for r in responses}) == 1
    assert sum(r.headers.get("idempotent-replayed") == "true" for r in responses) == 19
    run_id = responses[0].json()["id"]
    pending = wait_for(alice, run_id, "requires_action")["pending"]
    with ThreadPoolExecutor(10) as pool:  # the decision, also sent many times at once
        decided = list(
            pool.map(
                lambda _: alice.post(
                    f"/v1/runs/{run_id}/confirmations/{pending[0]['id']}",
                    json={"decision": "approve"},
                ),
                range(10),
            )
        )
    assert (
        all(r.status_code == 200 for r in decided)
        and sum(not r.json()["replayed"] for r in decided) == 1
    )
    assert wait_for(alice, run_id, "completed")["answer"] == "完成：已通知 张三"
    again = alice.post("/v1/runs", json=body, headers={"Idempotency-Key": "key-20"})
    assert again.json()["id"] == run_id and again.json()["status"] == "completed"
    assert SENT == [("张三", "明天 9 点开会")]
    assert rows(service["db"], "SELECT COUNT(*) FROM runs") == [(1,)]


def test_same_key_other_body_is_422_and_keys_are_per_user_and_expire(service, tmp_path):
    alice, bob = service["alice"], service["bob"]
    first = alice.post(
        "/v1/runs", json={"session_id": "s", "message": "你好"}, headers={"Idempotency-Key": "k"}
    )
    other = alice.post(
        "/v1/runs", json={"session_id": "s", "message": "不一样"}, headers={"Idempotency-Key": "k"}
    )
    assert (
        first.status_code == 201
        and other.status_code == 422
        and other.json()["error"]["type"] == "idempotency_key_reused"
    )
    bobs = bob.post(
        "/v1/runs", json={"session_id": "s", "message": "不一样"}, headers={"Idempotency-Key": "k"}
    )
    assert bobs.status_code == 201 and bobs.json()["id"] != first.json()["id"]
    store: Store = service["app"].state.store
    execute(service["db"], "UPDATE idempotency_keys SET expires_at = 0")
    expired = alice.post(
        "/v1/runs", json={"session_id": "s", "message": "不一样"}, headers={"Idempotency-Key": "k"}
    )
    assert expired.status_code == 201 and expired.json()["id"] != first.json()["id"]
    assert store.get_run(first.json()["id"]) is not None


# ----------------------------------------------------- confirmations


def test_reject_tells_the_model_and_sends_nothing(service):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "通知李四：周五聚餐"}).json()
    pending = wait_for(alice, run["id"], "requires_action")["pending"]
    assert pending[0]["summary"] == "将通知 李四：周五聚餐" and pending[0]["approver_role"] is None
    response = alice.post(
        f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}",
        json={"decision": "reject", "reason": "改天再说"},
    )
    assert response.status_code == 200
    done = wait_for(alice, run["id"], "completed")
    assert done["answer"] == "没有完成：用户拒绝了此操作：改天再说" and SENT == []
    late = alice.post(
        f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
    )
    assert (
        late.status_code == 409
        and late.json()["error"]["details"]["decision"]["decision"] == "reject"
    )
    again = alice.post(
        f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}",
        json={"decision": "reject", "reason": "改天再说"},
    )
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert SENT == []


def test_only_the_named_role_may_approve(service):
    alice, admin = service["alice"], service["admin"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "通知全体：下午停电"}).json()
    pending = wait_for(alice, run["id"], "requires_action")["pending"]
    assert pending[0]["approver_role"] == "管理员"
    denied = alice.post(
        f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
    )
    assert (
        denied.status_code == 403 and "管理员" in denied.json()["error"]["message"] and SENT == []
    )
    assert (
        admin.post(
            f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
        ).status_code
        == 200
    )
    assert wait_for(alice, run["id"], "completed")["answer"] == "完成：已通知 全体" and SENT == [
        ("全体", "下午停电")
    ]


def test_a_pending_confirmation_survives_a_restart(tmp_path):
    db = tmp_path / "restart.sqlite3"
    app = make_app(db)
    _, token = app.state.store.add_user("alice", "行政助理")
    headers = {"Authorization": f"Bearer {token}"}
    with BackgroundServer(app) as server:
        run = httpx.post(
            f"{server.url}/v1/runs",
            json={"session_id": "s", "message": "通知王五：交周报"},
            headers=headers,
        ).json()
        with httpx.Client(base_url=server.url, headers=headers) as client:
            pending = wait_for(client, run["id"], "requires_action")["pending"]
    app.state.manager.shutdown(wait=True)

    restarted = make_app(db)  # a new process would do exactly this: open the same file
    with (
        BackgroundServer(restarted) as server,
        httpx.Client(base_url=server.url, headers=headers) as client,
    ):
        assert client.get(f"/v1/runs/{run['id']}").json()["status"] == "requires_action"
        assert (
            client.post(
                f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}",
                json={"decision": "approve"},
            ).status_code
            == 200
        )
        assert wait_for(client, run["id"], "completed")["answer"] == "完成：已通知 王五"
    restarted.state.manager.shutdown(wait=True)
    assert SENT == [("王五", "交周报")]


def test_cancel_stops_a_paused_and_a_running_run(service):
    alice = service["alice"]
    paused = alice.post("/v1/runs", json={"session_id": "s", "message": "通知赵六：取消"}).json()
    wait_for(alice, paused["id"], "requires_action")
    assert alice.post(f"/v1/runs/{paused['id']}/cancel").json()["status"] == "cancelled"
    running = alice.post("/v1/runs", json={"session_id": "s2", "message": "等 0.5"}).json()
    wait_for(alice, running["id"], "running")
    alice.post(f"/v1/runs/{running['id']}/cancel")
    done = wait_for(alice, running["id"], "cancelled")
    assert done["stop_reason"] == "cancelled" and SENT == []


# ----------------------------------------------------- events


def test_sse_streams_every_event_and_a_reconnect_with_last_event_id_loses_none(service):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "等 0.3"}).json()
    first = read_events(service["url"], alice, run["id"], stop_after=2)  # the client leaves early
    rest = read_events(service["url"], alice, run["id"], last_id=first[-1]["id"])
    done = wait_for(alice, run["id"], "completed")
    full = read_events(service["url"], alice, run["id"])
    assert (
        [e["id"] for e in numbered(first + rest)]
        == [e["id"] for e in numbered(full)]
        == list(range(1, len(full)))
    )
    assert [e["event"] for e in full] == [
        "run_start",
        "model_call",
        "tool_call",
        "tool_result",
        "model_call",
        "final",
        "stop",
        "end",
    ]
    assert full[-2]["data"]["stop_reason"] == "final" and done["answer"] == "完成：ok"
    assert (
        rest[-1]
        == full[-1]
        == {
            "event": "end",
            "data": {"status": "completed", "stop_reason": "final"},
            "id": None,
        }
    )


def test_a_paused_runs_stream_ends_with_end_and_an_idle_stream_keeps_alive(service):
    alice = service["alice"]
    paused = alice.post("/v1/runs", json={"session_id": "s", "message": "通知张三：周会"}).json()
    events = read_events(service["url"], alice, paused["id"])
    assert events[-1]["data"] == {"status": "requires_action", "stop_reason": "needs_confirmation"}
    assert events[-2]["event"] == "stop" and "needs_confirmation" in [e["event"] for e in events]
    service["app"].state.settings.sse_keepalive_seconds = 0.1
    running = alice.post("/v1/runs", json={"session_id": "s2", "message": "等 0.5"}).json()
    with httpx.stream(
        "GET", f"{service['url']}/v1/runs/{running['id']}/events", headers=alice.headers, timeout=10
    ) as response:
        lines = list(response.iter_lines())
    assert (
        lines[0] == "retry: 3000"
        and ": keep-alive" in lines
        and lines[-2:] == ['data: {"status": "completed", "stop_reason": "final"}', ""]
    )


def test_a_client_that_disconnects_does_not_stop_the_run(service):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "等 0.3"}).json()
    read_events(service["url"], alice, run["id"], stop_after=1)
    assert wait_for(alice, run["id"], "completed")["answer"] == "完成：ok"


# ----------------------------------------------------- bad input


@pytest.mark.parametrize(
    "content, headers, status, kind",
    [
        (b"{not json", {"content-type": "application/json"}, 400, "invalid_json"),
        (json.dumps({"session_id": "s"}).encode(), {}, 422, "invalid_request"),
        (json.dumps({"session_id": "s", "message": 3}).encode(), {}, 422, "invalid_request"),
        (json.dumps({"session_id": "s", "message": "  "}).encode(), {}, 422, "invalid_request"),
        (
            json.dumps({"session_id": "s", "message": "hi", "extra": 1}).encode(),
            {},
            422,
            "invalid_request",
        ),
        (json.dumps([1, 2]).encode(), {}, 422, "invalid_request"),
        (
            json.dumps({"session_id": "s", "message": "长" * 5000}).encode(),
            {},
            413,
            "body_too_large",
        ),
    ],
)
def test_bad_bodies_get_json_errors_and_write_nothing(service, content, headers, status, kind):
    response = service["alice"].post("/v1/runs", content=content, headers=headers)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["type"] == kind and error["message"] and "Traceback" not in response.text
    assert rows(service["db"], "SELECT COUNT(*) FROM runs") == [(0,)]


def test_a_body_without_content_length_is_still_bounded(service):
    def chunks():
        for _ in range(10):
            yield b" " * 1000

    response = service["alice"].post("/v1/runs", content=chunks())
    assert response.status_code == 413


def test_decision_validation(service):
    alice = service["alice"]
    run = alice.post("/v1/runs", json={"session_id": "s", "message": "你好"}).json()
    wait_for(alice, run["id"], "completed")
    assert (
        alice.post(
            f"/v1/runs/{run['id']}/confirmations/req_x", json={"decision": "maybe"}
        ).status_code
        == 422
    )
    response = alice.post(f"/v1/runs/{run['id']}/confirmations/req_x", json={"decision": "approve"})
    assert response.status_code == 409 and response.json()["error"]["type"] == "not_waiting"


# ----------------------------------------------------- several processes on one database


def test_a_second_process_leaves_the_first_ones_running_run_alone_and_fails_a_dead_ones(tmp_path):
    from handwritten_agent.service.runner import RESTART_MESSAGE

    db = tmp_path / "shared.sqlite3"
    first = make_app(db)  # two processes: each opens the same file and runs its own RunManager
    _, token = first.state.store.add_user("alice", "行政助理")
    headers = {"Authorization": f"Bearer {token}"}
    with (
        BackgroundServer(first) as server,
        httpx.Client(base_url=server.url, headers=headers) as client,
    ):
        running = client.post("/v1/runs", json={"session_id": "s", "message": "等 1.0"}).json()
        wait_for(client, running["id"], "running")
        dead = Store(db).create_run(Store(db).user_for_token(token), "s2", "很久以前的运行")[0]
        with sqlite3.connect(db) as raw:  # a run claimed by a process that died a minute ago
            raw.execute(
                "UPDATE runs SET status = 'running', worker = 'w_gone', heartbeat = ? WHERE id = ?",
                (time.time() - 60, dead["id"]),
            )
        second = make_app(db)  # starts up: recover() looks for runs of dead processes
        try:
            assert client.get(f"/v1/runs/{dead['id']}").json()["status"] == "failed"
            assert client.get(f"/v1/runs/{dead['id']}").json()["error"] == RESTART_MESSAGE
            assert client.get(f"/v1/runs/{running['id']}").json()["status"] == "running"
            assert wait_for(client, running["id"], "completed")["answer"] == "完成：ok"
        finally:
            second.state.manager.shutdown(wait=True)
    first.state.manager.shutdown(wait=True)


def test_a_long_run_keeps_its_lease(tmp_path):
    db = tmp_path / "lease.sqlite3"
    store = Store(db)
    registry = ToolRegistry([send_notice, wait_a_bit])
    manager = RunManager(
        store,
        lambda user, session_id, on_event, run_id: Agent(
            FunctionClient(model), registry, on_event=on_event
        ),
        lambda row, decider: row,
        workers=1,
        lease_seconds=0.6,
        heartbeat_seconds=0.1,
    )
    user, _ = store.add_user("alice", "行政助理")
    run, _ = store.create_run(user, "s", "等 1.5")
    try:
        manager.submit(run["id"])
        manager.wait(run["id"], timeout=10)
    finally:
        manager.shutdown(wait=True)
    done = store.get_run(run["id"])
    assert (
        done["status"] == "completed" and done["worker"] == manager.worker
    )  # 1.5 s > the 0.6 s lease: renewed, not failed


def test_an_approver_sees_the_requests_waiting_for_their_role_and_no_others(service):
    alice, admin, bob = service["alice"], service["admin"], service["bob"]
    everyone = alice.post(
        "/v1/runs", json={"session_id": "s", "message": "通知全体：下午停电"}
    ).json()
    own = alice.post("/v1/runs", json={"session_id": "s2", "message": "通知李四：周五聚餐"}).json()
    wait_for(alice, everyone["id"], "requires_action")
    wait_for(alice, own["id"], "requires_action")
    queue = admin.get("/v1/confirmations").json()["data"]
    assert [
        (item["run_id"], item["request"]["approver_role"], item["requested_by"]) for item in queue
    ] == [(everyone["id"], "管理员", "alice")]
    assert [item["run_id"] for item in alice.get("/v1/confirmations").json()["data"]] == [
        own["id"]
    ]  # her own L2 confirmation
    assert bob.get("/v1/confirmations").json()["data"] == []
    admin.post(
        f"/v1/runs/{everyone['id']}/confirmations/{queue[0]['request']['id']}",
        json={"decision": "approve"},
    )
    wait_for(alice, everyone["id"], "completed")
    assert admin.get("/v1/confirmations").json()["data"] == []
    assert httpx.get(f"{service['url']}/v1/confirmations").status_code == 401


def test_a_body_nested_too_deep_is_a_400(service):
    body = '{"session_id": "s", "message": ' + "[" * 1000 + "]" * 1000 + "}"
    response = service["alice"].post("/v1/runs", content=body.encode())
    assert response.status_code == 400 and response.json()["error"]["type"] == "invalid_json"


# ----------------------------------------------------- /docs and the error shape


def test_openapi_describes_every_endpoint_with_its_schemas_and_the_bearer_scheme(service):
    spec = httpx.get(f"{service['url']}/openapi.json").json()
    assert spec["components"]["securitySchemes"]["HTTPBearer"] == {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "hat_…",
        "description": spec["components"]["securitySchemes"]["HTTPBearer"]["description"],
    }
    schemas = spec["components"]["schemas"]
    operations = [
        (path, method, op) for path, item in spec["paths"].items() for method, op in item.items()
    ]
    assert sorted((path, method) for path, method, _ in operations) == sorted(
        [
            ("/v1/me", "get"),
            ("/v1/runs", "post"),
            ("/v1/runs/{run_id}", "get"),
            ("/v1/runs/{run_id}/cancel", "post"),
            ("/v1/runs/{run_id}/confirmations/{request_id}", "post"),
            ("/v1/confirmations", "get"),
            ("/v1/runs/{run_id}/events", "get"),
        ]
    )
    for path, method, op in operations:
        assert op["security"] == [{"HTTPBearer": []}], path
        assert op["responses"]["401"]["content"]["application/json"]["schema"]["$ref"].endswith(
            "/ErrorResponse"
        ), path
        ok = op["responses"].get("201") or op["responses"]["200"]
        assert ok["content"], (path, method)
        if method == "post" and not path.endswith("/cancel"):
            assert op["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[
                -1
            ] in ("RunCreate", "DecisionCreate")
    run_create = schemas["RunCreate"]
    assert run_create["additionalProperties"] is False and run_create["required"] == [
        "session_id",
        "message",
    ]
    assert (
        run_create["properties"]["message"]["maxLength"],
        run_create["properties"]["session_id"]["maxLength"],
    ) == (4000, 200)
    assert schemas["DecisionCreate"]["properties"]["decision"]["enum"] == ["approve", "reject"]
    assert schemas["DecisionCreate"]["properties"]["reason"]["maxLength"] == 500
    assert "provenance" in schemas["ConfirmationRequestOut"]["properties"]
    key = next(
        p for p in spec["paths"]["/v1/runs"]["post"]["parameters"] if p["name"] == "Idempotency-Key"
    )
    assert key["in"] == "header" and key["schema"]["anyOf"][0]["maxLength"] == 255
    docs = httpx.get(f"{service['url']}/docs")
    assert docs.status_code == 200 and "swagger-ui" in docs.text and "/openapi.json" in docs.text


def test_validation_errors_keep_the_one_chinese_shape(service):
    alice = service["alice"]
    response = alice.post("/v1/runs", json={"session_id": "s", "mesage": "你好"})
    error = response.json()["error"]
    assert response.status_code == 422 and error["type"] == "invalid_request"
    assert {(d["field"], d["problem"]) for d in error["details"]} == {
        ("message", "缺少这个字段"),
        ("mesage", "不认识这个字段"),
    }
    long = alice.post("/v1/runs", json={"session_id": "s" * 201, "message": "你好"}).json()["error"]
    assert long["details"] == [{"field": "session_id", "problem": "最多 200 个字符"}]
    blank = alice.post("/v1/runs", json={"session_id": "s", "message": " \n "}).json()["error"]
    assert blank["details"] == [{"field": "message", "problem": "不能只有空白"}]
    key = alice.post(
        "/v1/runs",
        json={"session_id": "s", "message": "你好"},
        headers={"Idempotency-Key": "k" * 256},
    ).json()["error"]
    assert (
        key["details"][0]["field"] == "header.Idempotency-Key"
        and "255" in key["details"][0]["problem"]
    )
    for content_type in (
        {},
        {"content-type": "application/x-www-form-urlencoded"},
    ):  # none, or what curl -d sends: still JSON
        assert (
            alice.post(
                "/v1/runs",
                content='{"session_id": "s", "message": "你好"}'.encode(),
                headers=content_type,
            ).status_code
            == 201
        )
    not_object = alice.post("/v1/runs", content=b'["s", "hi"]')
    assert not_object.status_code == 422 and not_object.json()["error"]["details"] == [
        {"field": "（请求体）", "problem": "应该是一个 JSON 对象"}
    ]
    empty = alice.post("/v1/runs", content=b"")
    assert empty.status_code == 422 and empty.json()["error"]["details"] == [
        {"field": "（请求体）", "problem": "缺少这个字段"}
    ]
    assert alice.get("/v1/nothing").json()["error"] == {
        "type": "not_found",
        "message": "没有这个地址。",
    }
    assert alice.delete("/v1/runs").json()["error"]["type"] == "http_error"
    me = alice.get("/v1/me").json()
    assert (me["name"], me["role"]) == ("alice", "行政助理")


def test_an_unexpected_error_is_a_500_in_the_one_shape_and_the_connection_lives_on(
    service, monkeypatch
):
    from test_service_hardening import raw_requests

    store: Store = service["app"].state.store

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(store, "get_run", broken)
    token = service["alice"].headers["authorization"]
    (status, body), (after, me) = raw_requests(
        service["url"],
        [
            ("GET", "/v1/runs/run_x", b"", {"Authorization": token}),
            ("GET", "/v1/me", b"", {"Authorization": token}),
        ],
    )
    assert status == 500 and body["error"] == {
        "type": "internal_error",
        "message": "服务内部错误：RuntimeError。请查看服务日志。",
    }
    assert after == 200 and me["name"] == "alice"


def test_the_web_page_is_served_at_the_root_and_loads_nothing_from_elsewhere(service):
    page = httpx.get(f"{service['url']}/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert (
        "<title>办公助手</title>" in page.text
        and "/v1/runs" in page.text
        and "getReader" in page.text
    )  # fetch-based SSE
    assert (
        not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page.text)
        and "import(" not in page.text
    )


def test_the_page_names_an_icon_the_service_serves(service):
    """A browser asks for ``/favicon.ico`` on every page load; a 404 there fills the log and the
    tab shows no icon."""
    page = httpx.get(f"{service['url']}/").text
    href = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert href, "the page names no icon"
    icon = httpx.get(f"{service['url']}{href.group(1)}")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.content.lstrip().startswith(b"<svg") and b"</svg>" in icon.content
