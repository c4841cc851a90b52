"""Correct, another way: deletes the user's row from the sessions table with SQL (a session without a row has no memory)."""

import sqlite3

from fastapi import Request, Response

from handwritten_agent.service.app import current_user


def add_forget_endpoint(app):
    @app.delete("/v1/sessions/{session_id}", status_code=204)
    def forget(session_id: str, request: Request) -> Response:
        user = current_user(request)
        with sqlite3.connect(app.state.store.path) as db:
            db.execute("DELETE FROM sessions WHERE user_id = ? AND session_id = ?", (user.id, session_id))
        return Response(status_code=204)
    return app


ARGS = (add_forget_endpoint,)
