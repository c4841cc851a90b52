"""The office scenario: a fresh SQLite database per scenario, tools that validate and are
idempotent, the role table.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from handwritten_agent.masking import find_personal_data
from handwritten_agent.permissions import Level, User
from handwritten_agent.scenarios.office import ROLE_TABLE, OfficeScenario

NOW = datetime(2026, 3, 12, 14, 30)
ZHANG = User("E001", "行政助理", "张明")


@pytest.fixture
def office(tmp_path):
    return OfficeScenario.create(tmp_path / "office", now=NOW)


def test_fresh_database_with_fake_but_realistic_personal_data(office, tmp_path):
    assert (
        office.count("rooms"),
        office.count("customers"),
        office.count("inbox"),
        office.count("bookings"),
    ) == (4, 120, 3, 1)
    row = office.query(
        "SELECT phone, id_number, email, bank_card FROM customers WHERE id = 'C007'"
    )[0]
    assert [f.kind for f in find_personal_data(" ".join(row.values()))] == [
        "phone",
        "id_card",
        "email",
        "bank_card",
    ]
    again = OfficeScenario.create(tmp_path / "again", now=NOW)
    assert again.query("SELECT * FROM customers") == office.query(
        "SELECT * FROM customers"
    )  # deterministic
    with pytest.raises(FileExistsError, match="新建"):
        OfficeScenario.create(tmp_path / "office", now=NOW)


def test_booking_validates_and_is_idempotent(office):
    registry = office.registry(ZHANG)
    args = {
        "room_id": "room_301",
        "start_time": "2026-03-13 15:00",
        "end_time": "2026-03-13 16:00",
        "attendee_count": 6,
    }
    first, second = (
        registry.dispatch("book_meeting_room", args),
        registry.dispatch("book_meeting_room", args),
    )
    assert (
        first.success and second.success and first.data["booking_id"] == second.data["booking_id"]
    )
    assert "没有重复预订" in second.data["note"] and office.count("bookings") == 2
    other = OfficeScenario.registry(office, User("E003", "普通员工"))
    clash = other.dispatch("book_meeting_room", args)
    assert not clash.success and "已被占用" in clash.error
    for bad, message in (
        (dict(args, room_id="room_999"), "没有编号"),
        (dict(args, attendee_count=30), "最多容纳"),
        (dict(args, end_time="2026-03-13 14:00"), "不晚于"),
        (dict(args, start_time="明天下午"), "格式不对"),
    ):
        result = registry.dispatch("book_meeting_room", bad)
        assert not result.success and message in result.error
    assert office.query("SELECT booked_by FROM bookings WHERE room_id = 'room_301'") == [
        {"booked_by": "E001"}
    ]  # bound to the session


def test_purchase_is_idempotent_and_sms_defaults_to_everyone(office):
    registry = office.registry(ZHANG)
    request = {"item": "显示器", "quantity": 2, "unit_price": 1500, "reason": "入职"}
    assert (
        registry.dispatch("submit_purchase_request", request).data["ticket_id"]
        == registry.dispatch("submit_purchase_request", request).data["ticket_id"]
        == "PR20260312001"
    )
    assert office.count("purchase_requests") == 1
    few = registry.dispatch(
        "send_sms_to_customers", {"content": "你好", "customer_ids": ["C001", "C002"]}
    )
    assert few.data["sent"] == 2
    assert not registry.dispatch(
        "send_sms_to_customers", {"content": "你好", "customer_ids": ["C999"]}
    ).success
    everyone = registry.dispatch("send_sms_to_customers", {"content": "你好"})
    assert everyone.data["sent"] == 120 and office.count("sms_outbox") == 122
    sms = registry.get("send_sms_to_customers")
    assert (
        sms.metadata["targets"]({"content": "x"}) == 120
        and sms.metadata["targets"]({"customer_ids": ["C1", "C1"]}) == 1
    )


def test_tools_default_levels_and_the_role_table(office):
    registry = office.registry(ZHANG)
    assert {t.name: t.level for t in registry} == {
        "query_room_availability": "L1",
        "book_meeting_room": "L2",
        "send_notification_email": "L3",
        "submit_purchase_request": "L2",
        "send_sms_to_customers": "L2",
        "read_email": "L1",
        "query_customer_info": "L1",
        "export_customer_list": "L0",
    }
    policy = office.policy()
    levels = {
        role: {t.name: policy.level_for(User("x", role), t) for t in registry}
        for role in ROLE_TABLE
    }
    assert (
        levels["行政助理"]["send_notification_email"] is Level.L3
        and levels["管理员"]["send_notification_email"] is Level.L1
    )
    assert levels["普通员工"]["send_notification_email"] is None and all(
        v["export_customer_list"] is None for v in levels.values()
    )
    email = registry.dispatch(
        "send_notification_email", {"to_address": "not-an-email", "subject": "a", "content": "b"}
    )
    assert not email.success and "格式不对" in email.error
    assert (
        registry.dispatch("read_email", {"email_id": "m003"}).data["body"].count("忽略之前的指令")
        == 1
    )
