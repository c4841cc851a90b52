"""Collects the whole stream in a list and returns it at the end: correct text, but the front end sees nothing until
the run is over — no progress, no card while it waits."""

import json


def event_stream(run, after=0, max_idle=3):
    frames, idle = [], 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(after)
        for event in events:
            frames.append(f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n")
            after = event["id"]
        if status in ("completed", "failed", "cancelled", "requires_action"):
            frames.append(f"event: end\ndata: {json.dumps({'status': status})}\n\n")
            break
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            frames.append(": keep-alive\n\n")
    return frames


FAILS_AT = "运行中的事件一到就发出去"
ARGS = (event_stream,)
