"""Ends each event with one newline instead of a blank line: the client reads all the lines as one event."""

import json


def event_stream(run, after=0, max_idle=3):
    idle = 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(after)
        for event in events:
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n"
            after = event["id"]
        if status in ("completed", "failed", "cancelled", "requires_action"):
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"


FAILS_AT = "结束了的运行"
ARGS = (event_stream,)
