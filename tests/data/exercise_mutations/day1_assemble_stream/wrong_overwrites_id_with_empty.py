"""Copies id and name from every fragment that has the keys: later fragments with "" or null overwrite them."""


def assemble_stream(chunks):
    text, finish, calls = "", None, {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            finish = choice.get("finish_reason") or finish
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(piece["index"], {"id": None, "type": "function", "function": {"name": None, "arguments": ""}})
                function = piece.get("function") or {}
                if "id" in piece:
                    call["id"] = piece["id"]
                if "name" in function:
                    call["function"]["name"] = function["name"]
                call["function"]["arguments"] += function.get("arguments") or ""
    return {"content": text, "tool_calls": [calls[i] for i in sorted(calls)], "finish_reason": finish}


ARGS = (assemble_stream,)
FAILS_AT = "id 是空字符串"
