"""Raises on 5xx, but for a 4xx returns the server's error message as if it were the reply."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", headers={"Authorization": f"Bearer {api_key}"},
                          json={"model": model, "messages": [{"role": "user", "content": user_message}]}, timeout=30)
    if response.status_code >= 500:
        response.raise_for_status()
    data = response.json()
    if "error" in data:
        return "出错了：" + data["error"]["message"]
    return data["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "HTTP 404"
