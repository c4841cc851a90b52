"""Registers POST /v1/sessions/{session_id}/forget instead of DELETE /v1/sessions/{session_id}."""

from fastapi import Request, Response

from handwritten_agent.service.app import current_user


def add_forget_endpoint(app):
    @app.post("/v1/sessions/{session_id}/forget")
    async def forget(session_id: str, request: Request):
        user = current_user(request)
        app.state.store.save_history(user, session_id, [])
        return Response(status_code=204)


FAILS_AT = "已注册"
ARGS = (add_forget_endpoint,)
