"""Lower-cases the model name "to be safe": a provider's model names are case-sensitive
("Qwen/Qwen2.5-7B-Instruct"), so the request names a model that does not exist."""

import json

import httpx


def chat_once(base_url, api_key, model, user_message):
    body = json.dumps({"model": model.lower(), "messages": [{"role": "user", "content": user_message}]})
    response = httpx.post(
        base_url.rstrip("/") + "/chat/completions",
        headers={"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"},
        content=body,
        timeout=60,
    )
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


FAILS_AT = "换一个密钥和模型"
ARGS = (chat_once,)
