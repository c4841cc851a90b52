"""Catches every error and returns an empty string, so the caller never learns the call failed."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    try:
        response = httpx.post(base_url.rstrip("/") + "/chat/completions", headers={"Authorization": f"Bearer {api_key}"},
                              json={"model": model, "messages": [{"role": "user", "content": user_message}]}, timeout=30)
        response.raise_for_status()
        return response.json()["choices"][0]["message"]["content"]
    except Exception:
        return ""


ARGS = (chat_once,)
FAILS_AT = "HTTP 500"
