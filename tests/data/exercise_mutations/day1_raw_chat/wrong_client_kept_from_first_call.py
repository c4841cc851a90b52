"""Keeps one httpx.Client in a module global, made on the first call with that call's base_url and key:
every later call goes to the first server with the first key."""

import httpx

_client = None


def chat_once(base_url, api_key, model, user_message):
    global _client
    if _client is None:
        _client = httpx.Client(base_url=base_url.rstrip("/") + "/", headers={"Authorization": f"Bearer {api_key}"}, timeout=60)
    response = _client.post("chat/completions", json={"model": model, "messages": [{"role": "user", "content": user_message}]})
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "换一个密钥"
