"""Tidies each call's arguments with json.dumps(json.loads(...)) and no ensure_ascii=False: the
Chinese values come back as \\uXXXX escapes, not the text the model sent."""

import json


def _fix_text(text):
    return text


def _fix_arguments(arguments):
    try:
        return json.dumps(json.loads(arguments))
    except ValueError:
        return arguments


def assemble_stream(chunks):
    text, calls, finish_reason = [], {}, None
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                text.append(_fix_text(delta["content"]))
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(
                    piece["index"],
                    {"id": None, "type": "function", "function": {"name": "", "arguments": ""}},
                )
                if piece.get("id"):
                    call["id"] = piece["id"]
                function = piece.get("function") or {}
                if function.get("name"):
                    call["function"]["name"] = function["name"]
                call["function"]["arguments"] += function.get("arguments") or ""
            if choice.get("finish_reason"):
                finish_reason = choice["finish_reason"]
    tool_calls = [calls[i] for i in sorted(calls)]
    for call in tool_calls:
        call["function"]["arguments"] = _fix_arguments(call["function"]["arguments"])
    return {"content": "".join(text), "tool_calls": tool_calls, "finish_reason": finish_reason}


FAILS_AT = "参数分成几片"
ARGS = (assemble_stream,)
