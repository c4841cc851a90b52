"""Glues "/chat/completions" to base_url as given: a base_url ending in "/" gives "//chat/completions"."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    response = httpx.post(f"{base_url}/chat/completions", json={"model": model, "messages": [{"role": "user", "content": user_message}]},
                          headers={"Authorization": f"Bearer {api_key}"}, timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "末尾带 /"
