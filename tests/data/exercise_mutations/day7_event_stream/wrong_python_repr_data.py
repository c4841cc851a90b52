"""Writes the data as Python prints a dict (single quotes, None): not JSON, so the client's JSON.parse fails."""


def event_stream(run, after=0, max_idle=3):
    idle = 0
    while idle < max_idle:
        status = run.status()
        events = run.events_after(after)
        for event in events:
            yield f"id: {event['id']}\nevent: {event['event']}\ndata: {event['data']}\n\n"
            after = event["id"]
        if status in ("completed", "failed", "cancelled", "requires_action"):
            yield f"event: end\ndata: {{\"status\": \"{status}\"}}\n\n"
            return
        if events or run.wait():
            idle = 0
        else:
            idle += 1
            yield ": keep-alive\n\n"


FAILS_AT = "结束了的运行"
ARGS = (event_stream,)
