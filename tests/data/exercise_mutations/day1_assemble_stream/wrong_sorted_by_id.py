"""Sorts the tool calls by their id instead of their index: calls whose ids do not sort in index order come back in the wrong order."""

import json
import httpx
import openai

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
                call = calls.setdefault(piece["index"], {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
                if piece.get("id"):
                    call["id"] = piece["id"]
                function = piece.get("function") or {}
                if function.get("name"):  # 只发一次（OpenAI）或每个片段都重复（有些服务器）：直接赋值，不要追加
                    call["function"]["name"] = function["name"]
                call["function"]["arguments"] += function.get("arguments") or ""
            if choice.get("finish_reason"):
                finish_reason = choice["finish_reason"]
    return {"content": "".join(text), "tool_calls": sorted(calls.values(), key=lambda c: c["id"] or ""), "finish_reason": finish_reason}


ARGS = (assemble_stream,)
