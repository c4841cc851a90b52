"""Answers 200 with a JSON body instead of 204 No Content."""

from fastapi import Request

from handwritten_agent.service.app import current_user


def add_forget_endpoint(app):
    @app.delete("/v1/sessions/{session_id}")
    async def forget(session_id: str, request: Request):
        user = current_user(request)
        app.state.store.save_history(user, session_id, [])
        return {"forgotten": session_id}


FAILS_AT = "删除自己的会话 s1"
ARGS = (add_forget_endpoint,)
