"""Correct, another style: first gathers every tool-call piece with its index, then builds each call
from its own pieces (the last id and name given, the argument texts joined)."""


def assemble_stream(chunks):
    texts, pieces, finish = [], [], None
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            texts.append(delta.get("content") or "")
            pieces.extend(delta.get("tool_calls") or [])
            finish = choice.get("finish_reason") or finish
    calls = []
    for index in sorted({piece["index"] for piece in pieces}):
        own = [piece for piece in pieces if piece["index"] == index]
        ids = [piece["id"] for piece in own if piece.get("id")]
        names = [(piece.get("function") or {}).get("name") for piece in own]
        names = [name for name in names if name]
        calls.append({
            "id": ids[-1] if ids else None,
            "type": "function",
            "function": {
                "name": names[-1] if names else "",
                "arguments": "".join((piece.get("function") or {}).get("arguments") or "" for piece in own),
            },
        })
    return {"content": "".join(texts), "tool_calls": calls, "finish_reason": finish}


ARGS = (assemble_stream,)
