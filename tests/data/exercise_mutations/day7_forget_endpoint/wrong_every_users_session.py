"""Authenticates, but deletes the session id for every user with SQL (王强's s1 is forgotten too)."""

import sqlite3

from fastapi import Request, Response

from handwritten_agent.service.app import current_user


def add_forget_endpoint(app):
    @app.delete("/v1/sessions/{session_id}")
    async def forget(session_id: str, request: Request):
        current_user(request)
        with sqlite3.connect(app.state.store.path) as db:
            db.execute("DELETE FROM sessions WHERE session_id = ?", (session_id,))
        return Response(status_code=204)


FAILS_AT = "别人的同名会话"
ARGS = (add_forget_endpoint,)
