"""Infers finish_reason ("tool_calls" if there are calls, else "stop") instead of reading it: a reply cut off by length is reported as complete."""


def assemble_stream(chunks):
    text, calls = "", {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(piece["index"], {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
                call["id"] = piece.get("id") or call["id"]
                function = piece.get("function") or {}
                call["function"]["name"] += function.get("name") or ""
                call["function"]["arguments"] += function.get("arguments") or ""
    return {"content": text, "tool_calls": [calls[i] for i in sorted(calls)], "finish_reason": "tool_calls" if calls else "stop"}


ARGS = (assemble_stream,)
FAILS_AT = "length"
