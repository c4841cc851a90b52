"""Counts every empty wait since the stream began, not the ones in a row: a busy run that pauses now and then is
cut off although events keep coming."""

import json


def event_stream(run, after=0, max_idle=3):
    idle = 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(after)
        for event in events:
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
            after = event["id"]
        if status in ("completed", "failed", "cancelled", "requires_action"):
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if not events and not run.wait():
            idle += 1
            yield ": keep-alive\n\n"


FAILS_AT = "有新事件就重新数"
ARGS = (event_stream,)
