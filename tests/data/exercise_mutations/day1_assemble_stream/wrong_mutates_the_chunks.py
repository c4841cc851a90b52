"""Right result, but it keeps the first fragment's own dict as the call and appends to it, changing the caller's chunks."""


def assemble_stream(chunks):
    text, finish, calls = "", None, {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            finish = choice.get("finish_reason") or finish
            for piece in delta.get("tool_calls") or []:
                if piece["index"] not in calls:
                    piece.setdefault("function", {}).setdefault("arguments", "")
                    piece["type"] = "function"
                    calls[piece["index"]] = piece
                    continue
                calls[piece["index"]]["function"]["arguments"] += (piece.get("function") or {}).get("arguments") or ""
    result = [{"id": c.get("id"), "type": "function", "function": {"name": c["function"].get("name"), "arguments": c["function"]["arguments"]}}
              for _, c in sorted(calls.items())]
    return {"content": text, "tool_calls": result, "finish_reason": finish}


ARGS = (assemble_stream,)
FAILS_AT = "一个工具调用"
