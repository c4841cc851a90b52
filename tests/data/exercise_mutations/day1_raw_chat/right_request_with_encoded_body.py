"""Correct, another style: ``httpx.request`` with the body encoded by hand (UTF-8 JSON and its
Content-Type), the reply checked with ``is_error``."""

import json

import httpx


def chat_once(base_url, api_key, model, user_message):
    body = json.dumps(
        {"model": model, "messages": [{"role": "user", "content": user_message}]}, ensure_ascii=False
    ).encode("utf-8")
    response = httpx.request(
        "POST",
        f"{base_url.rstrip('/')}/chat/completions",
        content=body,
        headers={"Authorization": "Bearer " + api_key, "Content-Type": "application/json"},
        timeout=30.0,
    )
    if response.is_error:
        response.raise_for_status()
    choice = response.json()["choices"][0]
    return choice["message"]["content"]


ARGS = (chat_once,)
