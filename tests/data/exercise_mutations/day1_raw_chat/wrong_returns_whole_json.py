"""Returns the whole response JSON instead of the reply's text."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", headers={"Authorization": f"Bearer {api_key}"},
                          json={"model": model, "messages": [{"role": "user", "content": user_message}]}, timeout=30)
    response.raise_for_status()
    return response.json()


ARGS = (chat_once,)
FAILS_AT = "base_url 以 /v1 结尾"
