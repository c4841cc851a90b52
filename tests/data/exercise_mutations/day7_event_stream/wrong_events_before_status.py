"""Reads the events first and the status second, and ends as soon as the status says so: the events the run wrote
between the two reads (its last ones, often the answer) are never sent."""

import json


def event_stream(run, after=0, max_idle=3):
    idle = 0
    while idle < max_idle:
        events = run.events_after(after)
        for event in events:
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
            after = event["id"]
        status = run.status()
        if status in ("completed", "failed", "cancelled", "requires_action"):
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"


FAILS_AT = "结束前写下的事件"
ARGS = (event_stream,)
