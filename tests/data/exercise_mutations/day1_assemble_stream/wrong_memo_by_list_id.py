"""Remembers each result under id(chunks): the same list given other chunks returns the old result."""

_seen = {}


def assemble_stream(chunks):
    key = (id(chunks), len(chunks))
    if key in _seen:
        return _seen[key]
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
            if function.get("name"):
                call["function"]["name"] = function["name"]
            call["function"]["arguments"] += function.get("arguments") or ""
        if choice.get("finish_reason") is not None:
            finish_reason = choice["finish_reason"]
    result = {"content": content, "tool_calls": [calls[i] for i in sorted(calls)], "finish_reason": finish_reason}
    _seen[key] = result
    return result


ARGS = (assemble_stream,)
FAILS_AT = "同一个列表换了内容"
