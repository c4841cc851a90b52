"""Treats every status but ``running`` as the end: a run still queued behind others ends its stream before it starts."""

import json


def event_stream(run, after=0, max_idle=3):
    idle = 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(after)
        for event in events:
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
            after = event["id"]
        if status != "running":
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"


FAILS_AT = "排队中的运行不结束流"
ARGS = (event_stream,)
