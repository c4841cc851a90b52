"""Ends the stream only when the run has finished: a run waiting for a decision (requires_action) keeps the
connection open with keep-alives until the idle bound, and the client never learns it should show the card."""

import json


def event_stream(run, after=0, max_idle=3):
    idle = 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(after)
        for event in events:
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
            after = event["id"]
        if status in ("completed", "failed", "cancelled"):
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"


FAILS_AT = "等待确认的运行"
ARGS = (event_stream,)
