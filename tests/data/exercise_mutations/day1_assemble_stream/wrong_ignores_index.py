"""Appends every arguments fragment to the most recently opened call, ignoring index: interleaved parallel calls get mixed up."""


def assemble_stream(chunks):
    text, finish, calls = "", None, []
    for chunk in chunks:
        for choice in chunk["choices"]:
            text += choice["delta"].get("content") or ""
            finish = choice["finish_reason"] or finish
            for piece in choice["delta"].get("tool_calls") or []:
                if piece.get("id"):
                    calls.append({"id": piece["id"], "type": "function", "function": {"name": piece["function"]["name"], "arguments": ""}})
                calls[-1]["function"]["arguments"] += piece["function"].get("arguments") or ""
    return {"content": text, "tool_calls": calls, "finish_reason": finish}


ARGS = (assemble_stream,)
FAILS_AT = "两个并行的工具调用"
