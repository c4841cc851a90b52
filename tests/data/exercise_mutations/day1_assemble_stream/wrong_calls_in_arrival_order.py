"""Keeps the calls in the order their first fragment arrived, not by index: right while index 0 always
comes first, wrong when a server starts with index 1."""


def assemble_stream(chunks):
    content = ""
    calls = []
    where = {}
    finish_reason = None
    for chunk in chunks:
        if not chunk.get("choices"):
            continue
        choice = chunk["choices"][0]
        delta = choice.get("delta") or {}
        if delta.get("content"):
            content += delta["content"]
        for piece in delta.get("tool_calls") or []:
            if piece["index"] not in where:
                where[piece["index"]] = len(calls)
                calls.append({"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
            call = calls[where[piece["index"]]]
            if piece.get("id"):
                call["id"] = piece["id"]
            function = piece.get("function") or {}
            if function.get("name"):
                call["function"]["name"] = function["name"]
            call["function"]["arguments"] += function.get("arguments") or ""
        if choice.get("finish_reason") is not None:
            finish_reason = choice["finish_reason"]
    return {"content": content, "tool_calls": calls, "finish_reason": finish_reason}


ARGS = (assemble_stream,)
FAILS_AT = "index 大的先到"
