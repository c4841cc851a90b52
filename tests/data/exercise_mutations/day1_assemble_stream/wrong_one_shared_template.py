"""Starts every call from one module-level template dict (setdefault(index, TEMPLATE)): all parallel calls are the same dict, and the next stream starts from the last one's pieces."""

import json
import httpx
import openai

TEMPLATE = {"id": None, "type": "function", "function": {"name": "", "arguments": ""}}


def assemble_stream(chunks: list[dict]) -> dict:
    """用流式 chat completion 的各个片段重新拼出一条 assistant 消息。"""
    text: list[str] = []
    calls: dict[int, dict] = {}  # index -> 正在拼装的调用
    finish_reason = None
    for chunk in chunks:
        for choice in chunk.get("choices") or []:  # 只含 usage 的片段没有 choices
            delta = choice.get("delta") or {}
            if delta.get("content"):
                text.append(delta["content"])
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(piece["index"], TEMPLATE)
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
