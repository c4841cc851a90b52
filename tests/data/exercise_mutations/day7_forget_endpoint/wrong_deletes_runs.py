"""Forgets the memory but also deletes the session's runs (and their events): the audit trail is gone."""

import sqlite3

from fastapi import Request, Response

from handwritten_agent.service.app import current_user


def add_forget_endpoint(app):
    @app.delete("/v1/sessions/{session_id}")
    async def forget(session_id: str, request: Request):
        user = current_user(request)
        app.state.store.save_history(user, session_id, [])
        with sqlite3.connect(app.state.store.path) as db:
            ids = [row[0] for row in db.execute("SELECT id FROM runs WHERE user_id = ? AND session_id = ?", (user.id, session_id))]
            for run_id in ids:
                db.execute("DELETE FROM events WHERE run_id = ?", (run_id,))
                db.execute("DELETE FROM idempotency_keys WHERE run_id = ?", (run_id,))
            db.execute("DELETE FROM runs WHERE user_id = ? AND session_id = ?", (user.id, session_id))
        return Response(status_code=204)


FAILS_AT = "运行记录保留"
ARGS = (add_forget_endpoint,)
