"""The service against the third attack: the event loop never waits on the database, an approver
sees masked texts, security headers on every answer, a short 422 for a body full of unknown fields.

The world is ``service_world``'s (a fake gate and a reactive fake model); the HTTP, SQLite and
threads are real.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
from service_world import SENT, clear_sent, make_app, service, wait_for  # noqa: F401  (fixtures)

from handwritten_agent.course.background import BackgroundServer
from handwritten_agent.service.errors import MAX_LISTED_ERRORS

PATIENCE = 10.0
"""Seconds an answer may take on a loaded machine: far below the store's 30 s busy timeout."""


def test_another_connection_holding_the_write_lock_does_not_freeze_the_server(service):
    store = service["app"].state.store
    entered = threading.Event()
    original = store.create_run

    def create_run(*args, **kwargs):
        entered.set()  # the POST is now inside the store, about to wait for the lock held below
        return original(*args, **kwargs)

    store.create_run = create_run
    holder = sqlite3.connect(service["db"], timeout=30, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with ThreadPoolExecutor(1) as pool:
            posted = pool.submit(
                service["alice"].post,
                "/v1/runs",
                json={"session_id": "s", "message": "你好"},
                timeout=60,
            )
            assert entered.wait(PATIENCE), "POST /v1/runs 没有进入存储"
            with httpx.Client(base_url=service["url"], timeout=PATIENCE) as anonymous:
                page = anonymous.get("/")
            me = service["alice"].get("/v1/me", timeout=PATIENCE)
            assert not posted.done(), (
                "写锁还被别的连接占着，POST 却已经结束了：这个测试没有测到等待"
            )
            assert (
                page.status_code == 200 and me.status_code == 200 and me.json()["name"] == "alice"
            )
            holder.execute("COMMIT")
            assert posted.result(timeout=60).status_code == 201
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()


def test_an_approver_sees_the_requesters_message_masked_in_the_queue_and_the_decision(service):
    alice, admin = service["alice"], service["admin"]
    secret, mobile = "sk-" + "a1B2c3D4e5" * 3, "13812345678"
    message = f"通知全体：有事打 {mobile}，密钥 {secret}"
    run = alice.post("/v1/runs", json={"session_id": "s", "message": message}).json()
    pending = wait_for(alice, run["id"], "requires_action")["pending"]
    queue = admin.get("/v1/confirmations").json()["data"]
    shown = [item["message"] for item in queue if item["run_id"] == run["id"]]
    assert (
        len(shown) == 1
        and secret not in shown[0]
        and mobile not in shown[0]
        and "138****5678" in shown[0]
    )
    decided = admin.post(
        f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
    )
    assert decided.status_code == 200
    shown_run = decided.json()[
        "run"
    ]  # its texts; the card in "pending" is the gate's, masked by its own rules
    text = json.dumps(
        [shown_run["message"], shown_run["answer"], shown_run["error"]], ensure_ascii=False
    )
    assert secret not in text and mobile not in text and "138****5678" in text
    assert (
        alice.get(f"/v1/runs/{run['id']}").json()["message"] == message
    )  # the owner still sees what they wrote


def _hashes(html: str, tag: str) -> list[str]:
    blocks = re.findall(rf"<{tag}>(.*?)</{tag}>", html, re.DOTALL)
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(b.encode()).digest()).decode() + "'"
        for b in blocks
    ]


def test_the_page_and_the_api_send_security_headers(service):
    page = httpx.get(service["url"] + "/", timeout=PATIENCE)
    me = service["alice"].get("/v1/me")
    refused = httpx.get(service["url"] + "/v1/me", timeout=PATIENCE)
    for response in (page, me, refused):
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    policy = page.headers["content-security-policy"]
    assert (
        "frame-ancestors 'none'" in policy
        and "'unsafe-inline'" not in policy
        and "default-src 'self'" in policy
    )
    scripts, styles = _hashes(page.text, "script"), _hashes(page.text, "style")
    assert scripts and styles and all(h in policy for h in scripts + styles)
    docs = httpx.get(service["url"] + "/docs", timeout=PATIENCE)
    assert (
        docs.status_code == 200
        and "frame-ancestors 'none'" in docs.headers["content-security-policy"]
    )
    assert all(h in docs.headers["content-security-policy"] for h in _hashes(docs.text, "script"))
    assert httpx.get(service["url"] + "/openapi.json", timeout=PATIENCE).status_code == 200


def test_a_body_with_thousands_of_unknown_fields_gets_a_short_422(tmp_path):
    fields = {f"u{index:05d}": 0 for index in range(4000)}
    body = json.dumps({"session_id": "s", "message": "你好", **fields}).encode()
    assert len(body) > 50_000
    app = make_app(tmp_path / "service.sqlite3", max_body_bytes=64 * 1024)
    _, token = app.state.store.add_user("alice", "行政助理")
    with BackgroundServer(app) as server:
        answer = httpx.post(
            server.url + "/v1/runs",
            content=body,
            timeout=PATIENCE,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
    app.state.manager.shutdown(wait=True)
    assert answer.status_code == 422, answer.text[:300]
    error = answer.json()["error"]
    assert len(error["details"]) == MAX_LISTED_ERRORS and len(answer.content) < 5_000
    assert f"还有 {4000 - MAX_LISTED_ERRORS} 处错误未列出" in error["message"]
