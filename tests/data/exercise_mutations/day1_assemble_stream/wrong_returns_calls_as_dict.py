"""Collects the calls in a dict keyed by index and returns that dict instead of a list."""


def assemble_stream(chunks):
    text, finish, calls = "", None, {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            finish = choice.get("finish_reason") or finish
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(piece["index"], {"id": piece.get("id"), "type": "function", "function": {"name": "", "arguments": ""}})
                function = piece.get("function") or {}
                call["function"]["name"] += function.get("name") or ""
                call["function"]["arguments"] += function.get("arguments") or ""
    return {"content": text, "tool_calls": calls, "finish_reason": finish}


ARGS = (assemble_stream,)
FAILS_AT = "纯文本"
