"""Assigns each fragment's arguments instead of appending, so only the last piece is kept."""


def assemble_stream(chunks):
    text, finish, calls = "", None, {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            text += choice["delta"].get("content") or ""
            finish = choice["finish_reason"] or finish
            for piece in choice["delta"].get("tool_calls") or []:
                call = calls.setdefault(piece["index"], {"id": piece.get("id"), "type": "function", "function": {}})
                call["function"]["name"] = call["function"].get("name") or piece["function"].get("name")
                call["function"]["arguments"] = piece["function"].get("arguments")
    return {"content": text, "tool_calls": list(calls.values()), "finish_reason": finish}


ARGS = (assemble_stream,)
FAILS_AT = "参数分成几片"
