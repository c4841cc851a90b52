"""Retries "until it works" with no upper bound: a server that keeps failing (or is not running) keeps
the function looping forever instead of raising."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    url = base_url.rstrip("/") + "/chat/completions"
    headers = {"Authorization": f"Bearer {api_key}"}
    payload = {"model": model, "messages": [{"role": "user", "content": user_message}]}
    while True:
        try:
            response = httpx.post(url, headers=headers, json=payload, timeout=60)
            response.raise_for_status()
            return response.json()["choices"][0]["message"]["content"]
        except httpx.HTTPError:
            continue


ARGS = (chat_once,)
FAILS_AT = "秒内没有结束"
