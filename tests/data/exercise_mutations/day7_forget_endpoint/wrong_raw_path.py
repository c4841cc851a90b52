"""Cuts the session id out of the raw URL path itself: "周报 3" arrives percent-encoded and the wrong session is cleared."""

from fastapi import Request, Response

from handwritten_agent.service.app import current_user


def add_forget_endpoint(app):
    @app.delete("/v1/sessions/{session_id}")
    async def forget(session_id: str, request: Request):
        user = current_user(request)
        raw = request.scope["raw_path"].decode().rsplit("/", 1)[-1]
        app.state.store.save_history(user, raw, [])
        return Response(status_code=204)


FAILS_AT = "带空格和中文"
ARGS = (add_forget_endpoint,)
