"""Keeps only scheme and host of base_url and always appends /v1/chat/completions (fine for OpenAI, wrong for other paths)."""

from urllib.parse import urlsplit

import httpx


def chat_once(base_url, api_key, model, user_message):
    parts = urlsplit(base_url)
    url = f"{parts.scheme}://{parts.netloc}/v1/chat/completions"
    response = httpx.post(url, json={"model": model, "messages": [{"role": "user", "content": user_message}]},
                          headers={"Authorization": f"Bearer {api_key}"}, timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "路径不是 /v1"
