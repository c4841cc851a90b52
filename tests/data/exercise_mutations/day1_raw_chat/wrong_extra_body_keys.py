"""Adds temperature and stream to the body: the task asks for exactly two keys."""

import json
import httpx
import openai

def chat_once(base_url: str, api_key: str, model: str, user_message: str) -> str:
    """用原始的 httpx 发送一条用户消息，返回回复的文本。"""
    url = base_url.rstrip("/") + "/chat/completions"
    body = {"model": model, "messages": [{"role": "user", "content": user_message}], "temperature": 0, "stream": False}
    response = httpx.post(url, json=body, headers={"Authorization": f"Bearer {api_key}"}, timeout=30)
    response.raise_for_status()  # HTTP 错误要在这里暴露出来，而不是在下面变成 KeyError
    return response.json()["choices"][0]["message"]["content"]


ARGS = (chat_once,)
