"""Always sends the model and the message it was first tried with, whatever the arguments say."""

import httpx


def chat_once(base_url, api_key, model, user_message):
    body = {"model": "demo-model", "messages": [{"role": "user", "content": "你好"}]}
    response = httpx.post(base_url.rstrip("/") + "/chat/completions", headers={"Authorization": f"Bearer {api_key}"}, json=body, timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
FAILS_AT = "换一个密钥和模型"
