"""Wrong: writes data with json.dumps(data) — the default ensure_ascii=True turns Chinese into \\uXXXX, where the task
says json.dumps(data, ensure_ascii=False) (Chinese as it is)."""

import json


class Stream:
    def __init__(self, run, after, max_idle):
        self.run, self.last, self.max_idle, self.idle = run, after, max_idle, 0

    def frame(self, event):
        self.last = event["id"]
        body = json.dumps(event["data"])
        return "\n".join([f"id: {event['id']}", f"event: {event['event']}", f"data: {body}"]) + "\n\n"

    def __iter__(self):
        while self.idle < self.max_idle:
            state = self.run.status()
            batch = self.run.events_after(self.last)
            yield "".join(self.frame(event) for event in batch)  # several events in one chunk: fine, they arrive together
            if state in ("completed", "failed", "cancelled", "requires_action"):
                yield "event: end\ndata: " + json.dumps({"status": state}) + "\n\n"
                return
            if batch:
                self.idle = 0
            elif self.run.wait():
                self.idle = 0
            else:
                self.idle += 1
                yield ": ping\n\n"


def event_stream(run, after=0, max_idle=3):
    return iter(Stream(run, after, max_idle))


ARGS = (event_stream,)
FAILS_AT = "结束了的运行"
