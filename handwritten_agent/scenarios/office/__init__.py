"""The office assistant on a real SQLite database: tools, fake data, and the course's policy for
four roles.

    office = OfficeScenario.create()                      # a fresh database in a new temp folder
    user = User("E001", role="行政助理", name="张明")
    agent = Agent(client, office.registry(user), hooks=[PolicyGate(office.policy(), user)])

- ``data``   the schema and deterministic fake data (rooms, bookings, employees, 120 customers, an
             inbox)
- ``tools``  the eight tools, built per session (the acting user is bound, never an argument)

``office_policy`` is the role table of the notebook: who sees which tool at which level, the L3
approver (行政主管), a rate limit on notification emails and a bulk limit on SMS.

Left out: users and passwords (who acts is given by the caller), and a real mail or SMS gateway.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

from ...masking import MaskingRules
from ...permissions import AuditLog, Policy, RateLimit, RoleRules, User
from ...storage import open_sqlite
from ...tools import ToolRegistry
from .data import create_database
from .tools import office_tools

APPROVER_ROLE = "行政主管"

ROLE_TABLE: dict[str, dict[str, Any]] = {
    "普通员工": {
        "tools": [
            "query_room_availability",
            "book_meeting_room",
            "submit_purchase_request",
            "read_email",
        ],
        "levels": {"submit_purchase_request": "L3"},
    },
    "行政助理": {
        "tools": [
            "query_room_availability",
            "book_meeting_room",
            "send_notification_email",
            "submit_purchase_request",
            "send_sms_to_customers",
            "read_email",
            "query_customer_info",
        ],
        "levels": {},
    },
    "行政主管": {"tools": None, "levels": {"send_notification_email": "L2"}},
    "管理员": {
        "tools": None,
        "levels": {
            "book_meeting_room": "L1",
            "send_notification_email": "L1",
            "submit_purchase_request": "L1",
        },
    },
}
"""Role → visible tools (None: every tool but L0) and level overrides; a tool's own level applies
otherwise.
"""


def office_policy(
    audit: AuditLog | str | Path | None = None,
    *,
    email_per_hour: int = 10,
    sms_bulk_limit: int = 5,
    masking: MaskingRules | None = None,
    clock: Callable[[], float] | None = None,
) -> Policy:
    """The course's office policy (``ROLE_TABLE``), L3 approved by 行政主管, emails rate-limited,
    bulk SMS raised to L3.

    Personal data is masked everywhere except ``to_address``: the person approving an email must see
    where it goes (the address is one the user typed, not one read from the customer table).
    """
    options: dict[str, Any] = {} if clock is None else {"clock": clock}
    masking = masking or MaskingRules(fields={"to_address": "keep"})
    return Policy(
        {role: RoleRules(**rules) for role, rules in ROLE_TABLE.items()},
        rate_limits={"send_notification_email": RateLimit(email_per_hour, 3600)},
        bulk_limits={"send_sms_to_customers": sms_bulk_limit},
        masking=masking,
        approver_role=APPROVER_ROLE,
        audit=audit,
        **options,
    )


class OfficeScenario:
    """One sandbox: a database file and an audit-log file in one folder."""

    def __init__(self, folder: Path, now: Callable[[], datetime]):
        self.folder, self.now = folder, now
        self.db_path = folder / "office.sqlite"
        self.audit_path = folder / "audit.sqlite"

    @classmethod
    def create(
        cls,
        folder: str | Path | None = None,
        *,
        customers: int = 120,
        now: datetime | Callable[[], datetime] | None = None,
    ) -> OfficeScenario:
        """A fresh database in ``folder`` (default: a new temporary folder). ``now`` fixes the clock
        of the tools.
        """
        where = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="office_"))
        where.mkdir(parents=True, exist_ok=True)
        clock: Callable[[], datetime] = (
            (lambda: now) if isinstance(now, datetime) else (now or datetime.now)
        )  # type: ignore[assignment]
        scenario = cls(where, clock)
        create_database(scenario.db_path, customers=customers)
        return scenario

    def registry(self, user: User | str) -> ToolRegistry:
        """The tools for one session, acting as ``user`` (a ``User`` or a user id)."""
        user_id = user.id if isinstance(user, User) else str(user)
        return ToolRegistry(office_tools(self.db_path, user_id, self.now))

    def policy(self, **options: Any) -> Policy:
        """``office_policy`` writing its audit log next to the database."""
        return office_policy(options.pop("audit", self.audit_path), **options)

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """Rows of a read-only query on the database, as dicts."""
        with closing(open_sqlite(self.db_path, read_only=True)) as db:
            return [dict(row) for row in db.execute(sql, params).fetchall()]

    def count(self, table: str) -> int:
        if table not in {
            "rooms",
            "bookings",
            "employees",
            "customers",
            "inbox",
            "email_outbox",
            "sms_outbox",
            "purchase_requests",
        }:
            raise ValueError(f"没有表 {table!r}。")
        return int(self.query(f"SELECT COUNT(*) AS n FROM {table}")[0]["n"])

    def add_email(
        self,
        email_id: str,
        sender: str,
        subject: str,
        body: str,
        received_at: str = "2026-03-12 12:00",
    ) -> None:
        """Put one more message in the inbox (to try other wordings of an injection)."""
        with closing(open_sqlite(self.db_path)) as db, db:
            db.execute(
                "INSERT INTO inbox VALUES (?, ?, ?, ?, ?)",
                (email_id, sender, subject, body, received_at),
            )

    def __repr__(self) -> str:
        return f"OfficeScenario({str(self.folder)!r})"


__all__ = ["APPROVER_ROLE", "OfficeScenario", "ROLE_TABLE", "office_policy", "office_tools"]
