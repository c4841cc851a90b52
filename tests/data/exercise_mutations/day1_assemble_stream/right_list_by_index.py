"""Correct, in another style: a list grown to the highest index seen, and text kept in one string."""


def assemble_stream(chunks):
    content = ""
    calls = []
    finish_reason = None
    for chunk in chunks:
        if not chunk.get("choices"):
            continue
        choice = chunk["choices"][0]
        delta = choice.get("delta", {})
        if isinstance(delta.get("content"), str):
            content += delta["content"]
        for piece in delta.get("tool_calls", None) or []:
            index = piece["index"]
            while len(calls) <= index:
                calls.append({"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
            call = calls[index]
            if piece.get("id"):
                call["id"] = piece["id"]
            function = piece.get("function") or {}
            if function.get("name"):
                call["function"]["name"] = function["name"]
            if function.get("arguments"):
                call["function"]["arguments"] = call["function"]["arguments"] + function["arguments"]
        if choice.get("finish_reason") is not None:
            finish_reason = choice["finish_reason"]
    return {"content": content, "tool_calls": calls, "finish_reason": finish_reason}


ARGS = (assemble_stream,)
