"""Correct, another style: a helper that frames one SSE message from its fields, and the idle
waits counted by a ``for`` over ``itertools.count`` with explicit breaks."""

import itertools
import json

DONE = frozenset({"completed", "failed", "cancelled", "requires_action"})


def _frame(**fields):
    return "".join(f"{name}: {value}\n" for name, value in fields.items()) + "\n"


def event_stream(run, after=0, max_idle=3):
    idle = 0
    for _ in itertools.count():
        status = run.status()
        fresh = run.events_after(after)
        for event in fresh:
            yield _frame(id=event["id"], event=event["event"], data=json.dumps(event["data"], ensure_ascii=False))
            after = event["id"]
        if status in DONE:
            yield _frame(event="end", data=json.dumps({"status": status}))
            return
        if fresh or run.wait():
            idle = 0
            continue
        idle += 1
        yield ": keep-alive\n\n"
        if idle >= max_idle:
            return


ARGS = (event_stream,)
