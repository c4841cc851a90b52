"""The office assistant's tools on the SQLite database: the four of the office-admin scenario
(rooms, bookings, notification emails, purchases), plus bulk SMS, the inbox and customer records.

==============================  =====  ==========================================================
tool                            level  what it does
==============================  =====  ==========================================================
``query_room_availability``     L1     free rooms for a time slot
``book_meeting_room``           L2     books a room; the same booking twice is made once
``send_notification_email``     L3     writes a message to the outbox table
``submit_purchase_request``     L2     files a request, returns its ticket; the same one twice: once
``send_sms_to_customers``       L2     one SMS per customer; **no ids: all of them** (the accident)
``read_email``                  L1     a message from the inbox (whose body may carry an injection)
``query_customer_info``         L1     one customer's record with personal data (the gate masks it)
``export_customer_list``        L0     an internal interface: never shown to the model
==============================  =====  ==========================================================

Tools are built per session: ``office_tools(db_path, user_id, now)`` binds the acting user (who
books, sends, requests) — it is never a tool argument, so the model cannot act as someone else.
Every tool validates its input and returns the course's ``{success, data, error}`` envelope (errors
raised as ``ToolError`` with a Chinese message the model can act on). The levels here are the tools'
defaults; a ``Policy`` may change them per role.

``send_sms_to_customers`` keeps Day 5's accident (an SMS to every customer) reproducible on purpose:
a bulk tool whose recipients default to "everyone". Its ``targets`` option counts the recipients a
call would reach, which the policy's bulk limit reads.

Left out: real email and SMS delivery (the outbox tables are the sandbox), cancelling bookings, time
zones.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

from ...permissions.levels import Level
from ...storage import open_sqlite
from ...tools import Tool, ToolError, tool

TIME_FORMAT = "%Y-%m-%d %H:%M"
EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
MAX_SMS_LENGTH = 300


def _time(value: str, name: str) -> datetime:
    try:
        return datetime.strptime(value.strip(), TIME_FORMAT)
    except ValueError:
        raise ToolError(
            f"参数 {name} 的时间格式不对：{value!r}。请用 YYYY-MM-DD HH:MM，例如 2026-03-13 15:00。"
        ) from None


def _slot(start_time: str, end_time: str) -> tuple[str, str]:
    start, end = _time(start_time, "start_time"), _time(end_time, "end_time")
    if end <= start:
        raise ToolError(
            f"结束时间 {end_time} 不晚于开始时间 {start_time}：请给出一个有效的时间段。"
        )
    return start.strftime(TIME_FORMAT), end.strftime(TIME_FORMAT)


def office_tools(
    db_path: str | Path, user_id: str, now: Callable[[], datetime] = datetime.now
) -> list[Tool]:
    """The office tools for one session: ``user_id`` is who acts, ``now`` the clock for
    timestamps.
    """
    path = Path(db_path)

    def stamp() -> str:
        return now().strftime(TIME_FORMAT)

    def recipients(customer_ids: list[str] | None) -> list[sqlite3.Row]:
        with closing(open_sqlite(path)) as db:
            if not customer_ids:
                return db.execute("SELECT id, phone FROM customers ORDER BY id").fetchall()
            rows = db.execute(
                "SELECT id, phone FROM customers WHERE id IN"
                f" ({', '.join('?' for _ in customer_ids)}) ORDER BY id",
                list(customer_ids),
            ).fetchall()
        unknown = sorted(set(customer_ids) - {row["id"] for row in rows})
        if unknown:
            raise ToolError(
                f"没有这些客户：{'、'.join(unknown)}。客户编号形如 C001，请先用"
                " query_customer_info 确认。"
            )
        return rows

    def count_recipients(arguments: dict[str, Any]) -> int:
        ids = arguments.get("customer_ids")
        if ids:
            return len(set(ids))
        with closing(open_sqlite(path)) as db:
            return int(db.execute("SELECT COUNT(*) FROM customers").fetchone()[0])

    def sms_summary(arguments: dict[str, Any]) -> str:
        count = count_recipients(arguments)
        who = "全部" if not arguments.get("customer_ids") else ""
        return f"将向{who} {count} 位客户各发送一条短信：“{arguments.get('content', '')}”"

    @tool(level=Level.L1)
    def query_room_availability(
        start_time: str, end_time: str, min_capacity: int = 1
    ) -> dict[str, Any]:
        """查询指定时间段内空闲的会议室（只查询），返回每间的编号 id、名称、位置和容纳人数。

        Args:
            start_time: 开始时间，格式 YYYY-MM-DD HH:MM，例如：2026-05-20 09:00
            end_time: 结束时间，格式 YYYY-MM-DD HH:MM，例如：2026-05-20 10:00
            min_capacity: 至少要容纳的人数，例如：6
        """
        start, end = _slot(start_time, end_time)
        with closing(open_sqlite(path)) as db:
            rooms = db.execute(
                "SELECT id, name, location, capacity FROM rooms WHERE capacity >= ? AND id NOT IN"
                " (SELECT room_id FROM bookings WHERE start_time < ? AND end_time > ?) ORDER BY"
                " capacity, id",
                (min_capacity, end, start),
            ).fetchall()
        return {"start_time": start, "end_time": end, "free_rooms": [dict(room) for room in rooms]}

    @tool(
        level=Level.L2,
        side_effects=True,
        summary="将预订会议室 {room_id}：{start_time} 到 {end_time}，{attendee_count} 人",
    )
    def book_meeting_room(
        room_id: str, start_time: str, end_time: str, attendee_count: int
    ) -> dict[str, Any]:
        """预订会议室，需要会议室编号、时间段和参会人数；成功后返回预订编号，返回成功才算订下。同一个人重复预订同一时段只会生成一条预订。

        Args:
            room_id: 会议室编号，例如：room_301
            start_time: 开始时间，格式 YYYY-MM-DD HH:MM，例如：2026-05-20 09:00
            end_time: 结束时间，格式 YYYY-MM-DD HH:MM，例如：2026-05-20 10:00
            attendee_count: 参会人数，例如：6
        """
        start, end = _slot(start_time, end_time)
        if attendee_count < 1:
            raise ToolError(f"参会人数至少是 1，收到的是 {attendee_count}。")
        with closing(open_sqlite(path)) as db, db:
            room = db.execute("SELECT * FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if room is None:
                known = "、".join(
                    row["id"] for row in db.execute("SELECT id FROM rooms ORDER BY id")
                )
                raise ToolError(f"没有编号为 {room_id!r} 的会议室。可用的编号：{known}。")
            if attendee_count > room["capacity"]:
                raise ToolError(
                    f"{room_id} 最多容纳 {room['capacity']} 人，放不下 {attendee_count}"
                    " 人：请换一间更大的会议室。"
                )
            same = db.execute(
                "SELECT * FROM bookings WHERE room_id = ? AND start_time = ? AND end_time = ? AND"
                " booked_by = ?",
                (room_id, start, end, user_id),
            ).fetchone()
            if same is not None:  # idempotent: asked again, booked once
                return {
                    "booking_id": same["id"],
                    "room_id": room_id,
                    "start_time": start,
                    "end_time": end,
                    "attendees": same["attendees"],
                    "note": "这个时段你已经订过这间会议室，没有重复预订",
                }
            clash = db.execute(
                "SELECT id FROM bookings WHERE room_id = ? AND start_time < ? AND end_time > ?",
                (room_id, end, start),
            ).fetchone()
            if clash is not None:
                raise ToolError(
                    f"{room_id} 在 {start} 到 {end} 已被占用（预订 {clash['id']}）：请先用"
                    " query_room_availability 查空闲的会议室。"
                )
            number = db.execute("SELECT COUNT(*) FROM bookings").fetchone()[0] + 1
            booking_id = f"BK{number:04d}"
            db.execute(
                "INSERT INTO bookings VALUES (?, ?, ?, ?, ?, ?, ?)",
                (booking_id, room_id, start, end, attendee_count, user_id, stamp()),
            )
        return {
            "booking_id": booking_id,
            "room_id": room_id,
            "location": room["location"],
            "start_time": start,
            "end_time": end,
            "attendees": attendee_count,
        }

    @tool(level=Level.L3, side_effects=True, summary="将向 {to_address} 发送邮件《{subject}》")
    def send_notification_email(to_address: str, subject: str, content: str) -> dict[str, Any]:
        """向指定邮箱发送一封通知邮件，主题和正文按用户给的内容填写；成功后返回邮件编号。

        Args:
            to_address: 收件人邮箱地址，例如：zhangming@example.com
            subject: 邮件主题，例如：会议通知
            content: 邮件正文，例如：本周五 15:00 在 A301 开项目周会
        """
        if not EMAIL.match(to_address.strip()):
            raise ToolError(f"收件人邮箱格式不对：{to_address!r}，例如 zhangming@example.com。")
        if not subject.strip() or not content.strip():
            raise ToolError("邮件主题和正文都不能为空。")
        with closing(open_sqlite(path)) as db, db:
            cursor = db.execute(
                "INSERT INTO email_outbox (to_address, subject, content, sent_by, sent_at) VALUES"
                " (?, ?, ?, ?, ?)",
                (to_address.strip(), subject.strip(), content.strip(), user_id, stamp()),
            )
        return {
            "message_id": f"MSG{cursor.lastrowid:04d}",
            "to_address": to_address.strip(),
            "subject": subject.strip(),
            "status": "sent",
        }

    @tool(
        level=Level.L2,
        side_effects=True,
        summary="将提交采购申请：{item} × {quantity}，单价 {unit_price} 元",
    )
    def submit_purchase_request(
        item: str, quantity: int, unit_price: float, reason: str
    ) -> dict[str, Any]:
        """提交采购申请并生成工单，返回工单编号。同一个人重复提交完全相同的申请只会生成一张工单。

        Args:
            item: 要采购的物品，例如：27 寸显示器
            quantity: 数量，例如：2
            unit_price: 单价（元），例如：1500
            reason: 采购原因，例如：新同事入职
        """
        if quantity < 1 or unit_price <= 0:
            raise ToolError(
                f"数量至少是 1、单价要大于 0，收到的是 数量 {quantity}、单价 {unit_price}。"
            )
        if not item.strip():
            raise ToolError("采购物品不能为空。")
        fingerprint = hashlib.sha256(
            json.dumps(
                [user_id, item.strip(), quantity, float(unit_price), reason.strip()],
                ensure_ascii=False,
            ).encode()
        ).hexdigest()
        with closing(open_sqlite(path)) as db, db:
            same = db.execute(
                "SELECT id FROM purchase_requests WHERE fingerprint = ?", (fingerprint,)
            ).fetchone()
            if same is not None:
                return {
                    "ticket_id": same["id"],
                    "status": "submitted",
                    "note": "同样的申请已经提交过，没有重复提交",
                }
            number = db.execute("SELECT COUNT(*) FROM purchase_requests").fetchone()[0] + 1
            ticket = f"PR{now().strftime('%Y%m%d')}{number:03d}"
            total = round(quantity * float(unit_price), 2)
            db.execute(
                "INSERT INTO purchase_requests VALUES (?, ?, ?, ?, ?, ?, ?, 'submitted', ?, ?)",
                (
                    ticket,
                    item.strip(),
                    quantity,
                    float(unit_price),
                    total,
                    reason.strip(),
                    user_id,
                    stamp(),
                    fingerprint,
                ),
            )
        return {
            "ticket_id": ticket,
            "item": item.strip(),
            "quantity": quantity,
            "total": total,
            "status": "submitted",
        }

    @tool(level=Level.L2, side_effects=True, targets=count_recipients, summary=sms_summary)
    def send_sms_to_customers(
        content: str, customer_ids: list[str] | None = None
    ) -> dict[str, Any]:
        """给客户发送短信通知。只发给某几位客户时，必须把他们的编号填进 customer_ids；
        customer_ids 为空时发给全部客户。

        Args:
            content: 短信内容，例如：您的订单已发货
            customer_ids: 收短信的客户编号列表，例如：["C001", "C002"]；不填则发给全部客户
        """
        text = content.strip()
        if not text or len(text) > MAX_SMS_LENGTH:
            raise ToolError(
                f"短信内容不能为空，也不能超过 {MAX_SMS_LENGTH} 个字（现在 {len(text)} 个）。"
            )
        rows = recipients(customer_ids)
        sent_at = stamp()
        with closing(open_sqlite(path)) as db, db:
            db.executemany(
                "INSERT INTO sms_outbox (customer_id, phone, content, sent_by, sent_at) VALUES (?,"
                " ?, ?, ?, ?)",
                [(row["id"], row["phone"], text, user_id, sent_at) for row in rows],
            )
        return {
            "sent": len(rows),
            "customer_ids": [row["id"] for row in rows][:10] + (["…"] if len(rows) > 10 else []),
        }

    @tool(level=Level.L1, untrusted=True)  # anyone outside can write an email
    def read_email(email_id: str) -> dict[str, Any]:
        """读取收件箱里的一封邮件，返回发件人、主题和正文。

        Args:
            email_id: 邮件编号，例如：M001
        """
        with closing(open_sqlite(path)) as db:
            row = db.execute(
                "SELECT * FROM inbox WHERE id = ?", (email_id.strip().upper(),)
            ).fetchone()
            if row is None:
                known = "、".join(r["id"] for r in db.execute("SELECT id FROM inbox ORDER BY id"))
                raise ToolError(f"收件箱里没有编号为 {email_id!r} 的邮件。现有的邮件：{known}。")
        return {
            "email_id": row["id"],
            "from": row["sender"],
            "subject": row["subject"],
            "body": row["body"],
            "received_at": row["received_at"],
        }

    @tool(level=Level.L1, untrusted=True)  # customers write their own names and notes
    def query_customer_info(customer_id: str) -> dict[str, Any]:
        """根据客户编号查询客户资料，包括姓名、会员等级、积分和联系方式。

        Args:
            customer_id: 客户编号，例如：C001
        """
        with closing(open_sqlite(path)) as db:
            row = db.execute(
                "SELECT * FROM customers WHERE id = ?", (customer_id.strip().upper(),)
            ).fetchone()
        if row is None:
            raise ToolError(f"没有编号为 {customer_id!r} 的客户。客户编号形如 C001。")
        return dict(row)

    @tool(level=Level.L0)
    def export_customer_list(include_personal_data: bool = True) -> dict[str, Any]:
        """内部管理接口：导出全部客户资料（含身份证号和银行卡号）。

        Args:
            include_personal_data: 是否包含身份证号、银行卡号等个人信息，例如：true
        """
        with closing(open_sqlite(path)) as db:
            rows = [dict(row) for row in db.execute("SELECT * FROM customers ORDER BY id")]
        return {
            "customers": (
                rows
                if include_personal_data
                else [{"id": r["id"], "name": r["name"]} for r in rows]
            )
        }

    return [
        query_room_availability,
        book_meeting_room,
        send_notification_email,
        submit_purchase_request,
        send_sms_to_customers,
        read_email,
        query_customer_info,
        export_customer_list,
    ]


__all__ = ["MAX_SMS_LENGTH", "TIME_FORMAT", "office_tools"]
