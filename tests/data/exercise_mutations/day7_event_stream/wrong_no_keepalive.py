"""Counts the empty waits but sends nothing while it waits: a proxy or a browser that sees no byte for a while
closes the connection, and the client reconnects for nothing."""

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
        if events or run.wait():
            idle = 0
        else:
            idle += 1


FAILS_AT = "空等一次就发一行保活注释"
ARGS = (event_stream,)
