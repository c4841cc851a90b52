"""storage: one way to open SQLite, and the one schema step the package's files share."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from handwritten_agent.permissions import AuditLog
from handwritten_agent.storage import add_missing_columns, open_sqlite, table_columns


def test_add_missing_columns_adds_only_what_is_missing_and_keeps_the_rows(tmp_path):
    path = tmp_path / "old.db"
    with closing(open_sqlite(path)) as db, db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("INSERT INTO notes (text) VALUES ('旧的一行')")
        added = add_missing_columns(db, "notes", {"text": "TEXT", "author": "TEXT", "n": "INTEGER"})
        assert added == ["author", "n"]
        assert table_columns(db, "notes") == {"id", "text", "author", "n"}
        assert add_missing_columns(db, "notes", {"author": "TEXT"}) == []
        row = db.execute("SELECT text, author, n FROM notes").fetchone()
        assert tuple(row) == ("旧的一行", None, None)
    assert table_columns(sqlite3.connect(":memory:"), "absent") == set()


def test_an_audit_file_from_before_the_newer_columns_opens_and_gains_them(tmp_path):
    path = tmp_path / "audit.db"
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "CREATE TABLE audit (id INTEGER PRIMARY KEY AUTOINCREMENT, ts REAL, run_id TEXT,"
            " step INTEGER, tool_call_id TEXT, user_id TEXT, role TEXT, tool TEXT, level TEXT,"
            " decision TEXT, decided_by TEXT, decided_role TEXT, reason TEXT, arguments TEXT,"
            " arguments_sha256 TEXT, request_id TEXT)"
        )
    log = AuditLog(path)
    with closing(sqlite3.connect(path)) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(audit)")}
    assert {"targets", "provenance", "user_name", "decided_name"} <= columns
    assert log.path == str(path)
