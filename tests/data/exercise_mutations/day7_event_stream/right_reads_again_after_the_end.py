"""Correct, another way: events first, then the status; once the run has ended it reads the events once more before
``end``. Sends ``retry:`` first, writes every field on its own chunk and ``data:`` without a space."""

import json

FINISHED = {"completed", "failed", "cancelled", "requires_action"}


def event_stream(run, after=0, max_idle=3):
    yield "retry: 3000\n\n"

    def frames(events):
        nonlocal after
        for event in events:
            after = event["id"]
            yield f"id: {event['id']}\n"
            yield f"event: {event['event']}\n"
            yield "data:" + json.dumps(event["data"], ensure_ascii=False) + "\n\n"

    empty_waits = 0
    while empty_waits < max_idle:
        fresh = run.events_after(after)
        yield from frames(fresh)
        status = run.status()
        if status in FINISHED:
            yield from frames(run.events_after(after))  # what was written between the two reads
            yield "event: end\n" + "data: " + json.dumps({"status": status, "last_id": after}) + "\n\n"
            return
        if fresh:
            continue
        if run.wait():
            empty_waits = 0
            continue
        empty_waits += 1
        yield ":\n\n"


ARGS = (event_stream,)
