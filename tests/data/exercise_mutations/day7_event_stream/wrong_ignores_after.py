"""Starts from the first event whatever ``after`` says: a client that reconnects with Last-Event-ID gets every
event again and shows them twice."""

import json


def event_stream(run, after=0, max_idle=3):
    sent, idle = 0, 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(sent)
        for event in events:
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
            sent = event["id"]
        if status in ("completed", "failed", "cancelled", "requires_action"):
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"


FAILS_AT = "从 after 之后继续"
ARGS = (event_stream,)
