"""Does not authenticate: forgets the session of the first user in the database, whoever asks (no 401 without a token)."""

from fastapi import Request, Response


def add_forget_endpoint(app):
    @app.delete("/v1/sessions/{session_id}")
    async def forget(session_id: str, request: Request):
        user = app.state.store.users()[0]
        app.state.store.save_history(user, session_id, [])
        return Response(status_code=204)


FAILS_AT = "没有令牌"
ARGS = (add_forget_endpoint,)
