"""Correct: content is None when no text arrived (the API's own convention for a tool-call-only reply)."""

from collections import defaultdict


def assemble_stream(chunks):
    pieces = []
    ids, names, arguments = {}, {}, defaultdict(list)
    finish = None
    for chunk in chunks:
        for choice in chunk.get("choices", []):
            delta = choice.get("delta") or {}
            if delta.get("content"):
                pieces.append(delta["content"])
            for fragment in delta.get("tool_calls") or []:
                i = fragment["index"]
                arguments[i]  # the call exists from its first fragment on
                if fragment.get("id"):
                    ids[i] = fragment["id"]
                function = fragment.get("function") or {}
                if function.get("name"):
                    names[i] = function["name"]
                arguments[i].append(function.get("arguments") or "")
            finish = choice.get("finish_reason") or finish
    calls = [{"id": ids.get(i), "type": "function", "function": {"name": names.get(i), "arguments": "".join(arguments[i])}}
             for i in sorted(arguments)]
    return {"content": "".join(pieces) if pieces else None, "tool_calls": calls, "finish_reason": finish}


ARGS = (assemble_stream,)
