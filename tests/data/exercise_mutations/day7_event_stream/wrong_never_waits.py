"""Polls again at once when nothing is new (no run.wait()): the loop spins and keeps a CPU busy for every open stream."""

import json


def event_stream(run, after=0, max_idle=3):
    for _ in range(100_000):
        status = run.status()
        for event in run.events_after(after):
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
            after = event["id"]
        if status in ("completed", "failed", "cancelled", "requires_action"):
            yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
            return


FAILS_AT = "运行中的事件一到就发出去"
ARGS = (event_stream,)
