"""Joins the text and reads finish_reason, but ignores tool-call fragments altogether."""


def assemble_stream(chunks):
    text = "".join((c["choices"][0]["delta"].get("content") or "") for c in chunks if c["choices"])
    finish = [c["choices"][0]["finish_reason"] for c in chunks if c["choices"] and c["choices"][0]["finish_reason"]]
    return {"content": text, "tool_calls": [], "finish_reason": finish[-1] if finish else None}


ARGS = (assemble_stream,)
FAILS_AT = "一个工具调用"
