"""Tells a finished run by its status ending in "ed" (completed, failed, cancelled): "queued" ends in
"ed" too, so a queued run gets an end event before it has started."""

import json


def event_stream(run, after=0, max_idle=3):
    idle = 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(after)
        for event in events:
            data = json.dumps(event["data"], ensure_ascii=False)
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {data}\n\n"
            after = event["id"]
        if status.endswith("ed") or status == "requires_action":
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"


FAILS_AT = "排队中的运行"
ARGS = (event_stream,)
