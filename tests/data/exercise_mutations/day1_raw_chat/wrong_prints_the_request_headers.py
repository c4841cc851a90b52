"""Right request, but prints the headers while debugging: the API key ends up in the notebook's
output, which is saved and shared."""

FAILS_AT = "秘密"

import httpx


def chat_once(base_url, api_key, model, user_message):
    url = base_url.rstrip("/") + "/chat/completions"
    headers = {"Authorization": f"Bearer {api_key}"}
    print("POST", url, headers)
    body = {"model": model, "messages": [{"role": "user", "content": user_message}]}
    response = httpx.post(url, json=body, headers=headers, timeout=30)
    response.raise_for_status()
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
