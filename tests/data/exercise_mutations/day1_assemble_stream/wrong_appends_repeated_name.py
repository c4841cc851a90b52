"""Appends every name fragment with +=, as it does for arguments: a server that repeats the full name in
every fragment gives "get_weatherget_weather"."""


def assemble_stream(chunks):
    content = ""
    calls = {}
    finish_reason = None
    for chunk in chunks:
        if not chunk.get("choices"):
            continue
        choice = chunk["choices"][0]
        delta = choice.get("delta") or {}
        if delta.get("content"):
            content += delta["content"]
        for piece in delta.get("tool_calls") or []:
            call = calls.setdefault(
                piece["index"], {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
            )
            if piece.get("id"):
                call["id"] = piece["id"]
            function = piece.get("function") or {}
            call["function"]["name"] += function.get("name") or ""
            call["function"]["arguments"] += function.get("arguments") or ""
        if choice.get("finish_reason") is not None:
            finish_reason = choice["finish_reason"]
    return {"content": content, "tool_calls": [calls[i] for i in sorted(calls)], "finish_reason": finish_reason}


ARGS = (assemble_stream,)
FAILS_AT = "重复完整的 name"
