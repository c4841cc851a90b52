"""User names that cannot pass for another, and events stored without a secret.

- A user name (and a role) is NFKC-normalised, refused with a Chinese reason when it holds an
  invisible character (zero-width, bidi marks, fillers), and must differ from every current user's
  after normalising.
- The events a run stores (``model_call``, ``tool_call``, ``tool_result`` …) are masked before they
  are written, with the trace's rules: a secret or a mobile number in the user's message, repeated
  by the model in its arguments, never reaches the events table.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from test_service_office import Service, wait_for

from handwritten_agent.service.store import Store, clean_name

KEY = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
MOBILE = "13812345678"


@pytest.mark.parametrize(
    "look_alike",
    [
        "张\u200b明",  # zero-width space
        "\u202e张明",  # right-to-left override
        "张明\u200f",  # right-to-left mark
        "\ufeff张明",  # byte order mark
        "张\u2060明",  # word joiner
        "张\u00ad明",  # soft hyphen
        "张\u3164明",  # Hangul filler (drawn as nothing, category Lo)
        "张明\n",  # a control character inside the name
    ],
)
def test_a_name_with_an_invisible_character_is_refused_in_chinese(tmp_path, look_alike):
    store = Store(tmp_path / "s.db")
    store.add_user("张明", "行政助理")
    with (
        pytest.raises(ValueError, match="看不见的字符")
        if look_alike.strip() == look_alike
        else pytest.raises(ValueError)
    ):
        store.add_user(look_alike, "行政主管")
    assert [user.name for user in store.users()] == ["张明"]


@pytest.mark.parametrize("look_alike", ["ａｌｉｃｅ", "Alice", "ALICE", " alice ", "alice\u3000"])
def test_a_name_equal_after_normalising_is_taken(tmp_path, look_alike):
    store = Store(tmp_path / "s.db")
    store.add_user("alice", "行政助理")
    with pytest.raises(ValueError, match="已经有名为 'alice' 的用户了"):
        store.add_user(look_alike, "行政主管")
    assert [(user.name, user.role) for user in store.users()] == [("alice", "行政助理")]


def test_names_are_stored_normalised_and_found_by_their_normal_form(tmp_path):
    store = Store(tmp_path / "s.db")
    user, _ = store.add_user("ｂｏｂ　ｗａｎｇ", "行政助理")
    assert user.name == "bob wang" == clean_name("  bob   wang ")
    removed, _, _ = store.remove_user("ＢＯＢ ＷＡＮＧ")
    assert removed.id == user.id
    again, _ = store.add_user(
        "bob wang", "行政助理"
    )  # a removed user's name may be given to someone new
    assert again.id != user.id


def test_a_secret_and_a_mobile_number_never_reach_the_stored_events(tmp_path):
    running = Service(tmp_path)
    store = running.app.state.store
    _, token = store.add_user("张明", "行政助理")
    message = f"给客户 C001 发短信，内容是：新的接口密钥是 {KEY}，有问题打 {MOBILE}"
    try:
        with running.client(token) as zhang:
            run = zhang.post("/v1/runs", json={"session_id": "s", "message": message}).json()
            wait_for(zhang, run["id"], "requires_action", "completed", "failed")
    finally:
        running.stop()
    with sqlite3.connect(tmp_path / "service.sqlite3") as db:
        rows = db.execute("SELECT kind, data FROM events WHERE run_id = ?", (run["id"],)).fetchall()
    assert {"model_call", "tool_call"} <= {kind for kind, _ in rows}, rows
    stored = "\n".join(data for _, data in rows)
    assert KEY[:12] not in stored and MOBILE not in stored, stored
    calls = [json.loads(data) for kind, data in rows if kind == "model_call"]
    assert any(c.get("tool_calls") for c in calls), "模型应当发出了带参数的调用，测试才有意义"
