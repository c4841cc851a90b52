"""Walks the chunks with a while loop and `continue`s past the usage-only chunk (empty choices) before moving the index on: the loop never ends."""

import json
import httpx
import openai

FAILS_AT = "秒内没有结束"


def assemble_stream(chunks: list[dict]) -> dict:
    """用流式 chat completion 的各个片段重新拼出一条 assistant 消息。"""
    text: list[str] = []
    calls: dict[int, dict] = {}  # index -> 正在拼装的调用
    finish_reason = None
    position = 0
    while position < len(chunks):
        chunk = chunks[position]
        if not chunk.get("choices"):
            continue  # 只含 usage 的片段：跳过
        position += 1
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                text.append(delta["content"])
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(piece["index"], {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
                if piece.get("id"):
                    call["id"] = piece["id"]
                function = piece.get("function") or {}
                if function.get("name"):  # 只发一次（OpenAI）或每个片段都重复（有些服务器）：直接赋值，不要追加
                    call["function"]["name"] = function["name"]
                call["function"]["arguments"] += function.get("arguments") or ""
            if choice.get("finish_reason"):
                finish_reason = choice["finish_reason"]
    return {"content": "".join(text), "tool_calls": [calls[i] for i in sorted(calls)], "finish_reason": finish_reason}


ARGS = (assemble_stream,)
