"""Collects the text pieces in a default argument list (``text=[]``): made once, so the second stream
starts with the first stream's text (a shared mutable default)."""


def assemble_stream(chunks, text=[]):
    calls = {}
    finish_reason = None
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                text.append(delta["content"])
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(piece["index"], {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
                if piece.get("id"):
                    call["id"] = piece["id"]
                function = piece.get("function") or {}
                if function.get("name"):
                    call["function"]["name"] = function["name"]
                call["function"]["arguments"] += function.get("arguments") or ""
            if choice.get("finish_reason"):
                finish_reason = choice["finish_reason"]
    return {"content": "".join(text), "tool_calls": [calls[i] for i in sorted(calls)], "finish_reason": finish_reason}


ARGS = (assemble_stream,)
