"""Decodes the arguments of every fragment with json.loads and merges the dicts: fragments are not JSON on their own."""

import json


def assemble_stream(chunks):
    text, finish, calls = "", None, {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            finish = choice.get("finish_reason") or finish
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(piece["index"], {"id": piece.get("id"), "name": None, "args": {}})
                function = piece.get("function") or {}
                call["name"] = call["name"] or function.get("name")
                if function.get("arguments"):
                    call["args"].update(json.loads(function["arguments"]))
    result = [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["args"], ensure_ascii=False)}}
              for _, c in sorted(calls.items())]
    return {"content": text, "tool_calls": result, "finish_reason": finish}


ARGS = (assemble_stream,)
FAILS_AT = "参数分成几片"
