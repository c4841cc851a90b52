"""Opens a call on the fragment with the id but only appends arguments from later fragments, so arguments sent with the id are lost."""


def assemble_stream(chunks):
    text, finish, calls = "", None, {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            if choice.get("finish_reason"):
                finish = choice["finish_reason"]
            for piece in delta.get("tool_calls") or []:
                function = piece.get("function") or {}
                if piece.get("id"):
                    calls[piece["index"]] = {"id": piece["id"], "type": "function",
                                             "function": {"name": function.get("name"), "arguments": ""}}
                else:
                    calls[piece["index"]]["function"]["arguments"] += function.get("arguments") or ""
    return {"content": text, "tool_calls": [calls[i] for i in sorted(calls)], "finish_reason": finish}


ARGS = (assemble_stream,)
FAILS_AT = "第一片里就到齐"
