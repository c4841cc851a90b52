"""Cuts ``output_summary`` to 100 *bytes* of UTF-8 (dropping a broken last character): a Chinese
result keeps only about 33 characters, not the first 100 characters."""

import json
from datetime import datetime
from pathlib import Path


class StepTracer:
    def __init__(self, path, session_id, user_id):
        self.path, self.session_id, self.user_id = Path(path), session_id, user_id
        self.totals = {}

    def on_event(self, event):
        if event.kind == "run_start":
            self.totals[event.run_id] = {"input_tokens": None, "output_tokens": None, "usage_unknown": 0}
            return
        if event.kind not in ("model_call", "tool_result", "stop"):
            return
        totals = self.totals.setdefault(event.run_id, {"input_tokens": None, "output_tokens": None, "usage_unknown": 0})
        line = {"ts": datetime.fromtimestamp(event.ts).isoformat(), "event": event.kind, "request_id": event.run_id,
                "session_id": self.session_id, "user_id": self.user_id, "step": event.step}
        if event.kind == "model_call":
            usage = event.reply.usage
            if usage is None:
                totals["usage_unknown"] += 1
            else:
                totals["input_tokens"] = (totals["input_tokens"] or 0) + usage.prompt_tokens
                totals["output_tokens"] = (totals["output_tokens"] or 0) + usage.completion_tokens
            line.update(model=event.reply.model, input_tokens=usage.prompt_tokens if usage else None,
                        output_tokens=usage.completion_tokens if usage else None, finish_reason=event.reply.finish_reason)
        elif event.kind == "tool_result":
            record = event.record
            try:
                arguments = json.loads(record.call.arguments or "{}")
            except ValueError:
                arguments = None
            line.update(tool_name=record.call.name, input_args=arguments if isinstance(arguments, dict) else record.call.arguments,
                        output_summary=record.content.encode("utf-8")[:100].decode("utf-8", errors="ignore"),
                        tool_duration_ms=round(record.duration_ms, 1),
                        status="success" if record.result.success else "error")
        else:
            line.update(event="run_end", stop_reason=event.run.stop_reason, **totals)
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line, ensure_ascii=False) + "\n")


ARGS = (StepTracer,)
