"""Correct, another way: a timezone-aware ts, per-run totals in a small class, os.write on an O_APPEND file, a helper for the arguments."""

import json
import os
from datetime import datetime


def arguments_of(text):
    """The arguments as a dict, or the text itself when it is not a JSON object."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return text
    return value if isinstance(value, dict) else text


class Totals:
    def __init__(self):
        self.input = self.output = None
        self.unknown = 0

    def add(self, usage):
        if usage is None:
            self.unknown += 1
            return
        self.input = (self.input or 0) + usage.prompt_tokens
        self.output = (self.output or 0) + usage.completion_tokens


class StepTracer:
    def __init__(self, path, session_id, user_id):
        self.path = str(path)
        self.session_id = session_id
        self.user_id = user_id
        self.runs = {}

    def write(self, line):
        data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    def on_event(self, event):
        if event.kind == "run_start":
            self.runs[event.run_id] = Totals()
            return
        if event.kind not in ("model_call", "tool_result", "stop"):
            return
        totals = self.runs.setdefault(event.run_id, Totals())
        line = {"ts": datetime.fromtimestamp(event.ts).astimezone().isoformat(timespec="microseconds"),
                "event": "run_end" if event.kind == "stop" else event.kind, "request_id": event.run_id,
                "session_id": self.session_id, "user_id": self.user_id, "step": event.step}
        if event.kind == "model_call":
            usage = event.reply.usage
            totals.add(usage)
            line["model"] = event.reply.model
            line["input_tokens"] = None if usage is None else usage.prompt_tokens
            line["output_tokens"] = None if usage is None else usage.completion_tokens
            line["finish_reason"] = event.reply.finish_reason
        elif event.kind == "tool_result":
            line["tool_name"] = event.record.call.name
            line["input_args"] = arguments_of(event.record.call.arguments)
            line["output_summary"] = event.record.content[:100]
            line["tool_duration_ms"] = event.record.duration_ms
            line["status"] = "success" if event.record.result.success else "error"
        else:
            line.update(stop_reason=event.run.stop_reason, input_tokens=totals.input, output_tokens=totals.output,
                        usage_unknown=totals.unknown)
        self.write(line)


ARGS = (StepTracer,)
