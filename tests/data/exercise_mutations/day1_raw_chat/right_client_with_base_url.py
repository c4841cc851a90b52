"""Correct, in another style: an httpx.Client with base_url (httpx joins the path itself) and a status check by hand."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    with httpx.Client(base_url=base_url, headers={"authorization": "Bearer " + api_key}, timeout=30) as client:
        response = client.post("chat/completions", json={"messages": [{"content": user_message, "role": "user"}], "model": model})
    if response.status_code >= 400:
        raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")
    data = response.json()
    return data["choices"][0]["message"]["content"]


ARGS = (chat_once,)
