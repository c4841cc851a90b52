"""Treats only server errors (5xx) as errors: a 404 goes on to the parsing and ends in KeyError: 'choices'."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", headers={"Authorization": f"Bearer {api_key}"},
                          json={"model": model, "messages": [{"role": "user", "content": user_message}]}, timeout=30)
    if response.status_code >= 500:
        raise RuntimeError(f"服务器出错：HTTP {response.status_code}")
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "HTTP 404"
