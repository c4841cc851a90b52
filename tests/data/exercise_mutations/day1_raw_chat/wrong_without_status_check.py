"""Parses the body without checking the status: an error response ends in KeyError: 'choices'."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", headers={"Authorization": f"Bearer {api_key}"},
                          json={"model": model, "messages": [{"role": "user", "content": user_message}]}, timeout=30)
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "HTTP 500"
