"""Keeps the running totals in one dict on the class, not per run: a second tracer's run in between resets and adds to them, so the first run's run_end counts the other user's tokens."""

import json
from datetime import datetime
from pathlib import Path


class StepTracer:
    totals = {}  # one dict for the class: every tracer shares it

    """One JSON line per model call, tool result and run end, written as each happens."""

    def __init__(self, path, session_id, user_id):
        self.path, self.session_id, self.user_id = Path(path), session_id, user_id

    def on_event(self, event):
        line = {
            "ts": datetime.fromtimestamp(event.ts).isoformat(),
            "event": event.kind,
            "request_id": event.run_id,
            "session_id": self.session_id,
            "user_id": self.user_id,
            "step": event.step,
        }
        if event.kind == "run_start":
            StepTracer.totals.clear()
            StepTracer.totals["now"] = {
                "input_tokens": None,
                "output_tokens": None,
                "usage_unknown": 0,
            }
            return
        totals = StepTracer.totals.setdefault(
            "now", {"input_tokens": None, "output_tokens": None, "usage_unknown": 0}
        )
        if event.kind == "model_call":
            usage = event.reply.usage
            if usage is None:
                totals["usage_unknown"] += 1
            else:
                totals["input_tokens"] = (totals["input_tokens"] or 0) + usage.prompt_tokens
                totals["output_tokens"] = (totals["output_tokens"] or 0) + usage.completion_tokens
            line.update(
                model=event.reply.model,
                input_tokens=usage.prompt_tokens if usage else None,
                output_tokens=usage.completion_tokens if usage else None,
                finish_reason=event.reply.finish_reason,
            )
        elif event.kind == "tool_result":
            record = event.record
            try:
                arguments = json.loads(record.call.arguments or "{}")
            except ValueError:
                arguments = None
            line.update(
                tool_name=record.call.name,
                input_args=arguments if isinstance(arguments, dict) else record.call.arguments,
                output_summary=record.content[:100],
                tool_duration_ms=round(record.duration_ms, 1),
                status="success" if record.result.success else "error",
            )
        elif event.kind == "stop":
            line.update(event="run_end", stop_reason=event.run.stop_reason, **totals)
        else:
            return
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line, ensure_ascii=False) + "\n")


FAILS_AT = "同时"
ARGS = (StepTracer,)
