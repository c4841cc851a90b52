"""Not idempotent: answers 404 when the session has no memory (the second DELETE, or a session never used)."""

from fastapi import Request, Response

from handwritten_agent.service.app import APIError, current_user


def add_forget_endpoint(app):
    @app.delete("/v1/sessions/{session_id}")
    async def forget(session_id: str, request: Request):
        user = current_user(request)
        if not app.state.store.history(user, session_id):
            raise APIError(404, "not_found", f"没有这个会话：{session_id}")
        app.state.store.save_history(user, session_id, [])
        return Response(status_code=204)


FAILS_AT = "再删一次"
ARGS = (add_forget_endpoint,)
