"""Sends json.dumps(body) with data=, so the request has no Content-Type: application/json."""

import json

import httpx


def chat_once(base_url, api_key, model, user_message):
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": user_message}]})
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", content=body, headers={"Authorization": f"Bearer {api_key}"},
                          timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "base_url 以 /v1 结尾"
