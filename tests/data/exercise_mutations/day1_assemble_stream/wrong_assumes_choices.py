"""Reads chunk["choices"][0] from every chunk: the usage-only chunk at the end has no choices."""


def assemble_stream(chunks):
    text, finish, calls = "", None, {}
    for chunk in chunks:
        choice = chunk["choices"][0]
        delta = choice["delta"]
        text += delta.get("content") or ""
        for piece in delta.get("tool_calls") or []:
            call = calls.setdefault(piece["index"], {"id": piece.get("id"), "type": "function", "function": {"name": "", "arguments": ""}})
            call["function"]["name"] += piece["function"].get("name") or ""
            call["function"]["arguments"] += piece["function"].get("arguments") or ""
        finish = choice["finish_reason"] or finish
    return {"content": text, "tool_calls": [calls[i] for i in sorted(calls)], "finish_reason": finish}


ARGS = (assemble_stream,)
FAILS_AT = "只有 usage"
