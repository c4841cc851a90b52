"""Skips events whose id it has sent before, remembered in a default argument (``sent=set()``):
made once, so a second stream — another run whose events also start at id 1 — sends nothing (a
shared mutable default)."""

import json

ENDED = ("completed", "failed", "cancelled", "requires_action")


def event_stream(run, after=0, max_idle=3, sent=set()):
    idle = 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(after)
        for event in events:
            after = event["id"]
            if event["id"] in sent:
                continue
            sent.add(event["id"])
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
        if status in ENDED:
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"


ARGS = (event_stream,)
