"""Correct, written step by step: strip the slash, check the status, then read the content."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    while base_url.endswith("/"):
        base_url = base_url[:-1]
    headers = {"Authorization": "Bearer {}".format(api_key)}
    payload = {"model": model, "messages": [{"role": "user", "content": user_message}]}
    response = httpx.post(base_url + "/chat/completions", headers=headers, json=payload, timeout=60)
    response.raise_for_status()
    choice = response.json()["choices"][0]
    return choice["message"]["content"]


ARGS = (chat_once,)
