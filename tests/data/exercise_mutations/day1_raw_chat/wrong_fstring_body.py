"""Builds the JSON body with an f-string: a message with quotes or a newline makes it invalid JSON."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    body = f'{{"model": "{model}", "messages": [{{"role": "user", "content": "{user_message}"}}]}}'
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", content=body.encode(),
                          headers={"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}, timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "引号"
