"""Tidies the reply with .strip() before returning it: the task says the content comes back as it
is (leading spaces, a trailing newline and all)."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    response = httpx.post(
        base_url.rstrip("/") + "/chat/completions",
        headers={"Authorization": f"Bearer {api_key}"},
        json={"model": model, "messages": [{"role": "user", "content": user_message}]},
        timeout=60,
    )
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"].strip()


FAILS_AT = "换一个密钥和模型"
ARGS = (chat_once,)
