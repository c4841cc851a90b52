"""Sends the key copied from the notebook instead of the api_key argument."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", headers={"Authorization": "Bearer sk-offline-demo"},
                          json={"model": model, "messages": [{"role": "user", "content": user_message}]}, timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "base_url 以 /v1 结尾"
