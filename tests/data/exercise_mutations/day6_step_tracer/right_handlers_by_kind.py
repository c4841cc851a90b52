"""Correct, another style: one small method per event kind found with ``getattr``, the totals as
a per-run dict, each line written with ``print(..., file=...)``."""

import json
from datetime import datetime
from pathlib import Path


def _fresh():
    return {"input_tokens": None, "output_tokens": None, "usage_unknown": 0}


class StepTracer:
    def __init__(self, path, session_id, user_id):
        self.path, self.session_id, self.user_id = Path(path), session_id, user_id
        self.runs = {}

    def on_event(self, event):
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is None:
            return
        fields = handler(event, self.runs.setdefault(event.run_id, _fresh()))
        if fields is None:
            return
        line = {"ts": datetime.fromtimestamp(event.ts).isoformat(), "event": event.kind, "request_id": event.run_id,
                "session_id": self.session_id, "user_id": self.user_id, "step": event.step}
        line.update(fields)
        with open(self.path, "a", encoding="utf-8") as file:
            print(json.dumps(line, ensure_ascii=False), file=file)

    def _on_run_start(self, event, totals):
        self.runs[event.run_id] = _fresh()
        return None

    def _on_model_call(self, event, totals):
        usage = event.reply.usage
        if usage is None:
            totals["usage_unknown"] += 1
        else:
            for name, value in (("input_tokens", usage.prompt_tokens), ("output_tokens", usage.completion_tokens)):
                totals[name] = (totals[name] or 0) + value
        return {"model": event.reply.model, "input_tokens": usage and usage.prompt_tokens,
                "output_tokens": usage and usage.completion_tokens, "finish_reason": event.reply.finish_reason}

    def _on_tool_result(self, event, totals):
        record = event.record
        try:
            parsed = json.loads(record.call.arguments or "{}")
        except ValueError:
            parsed = None
        return {"tool_name": record.call.name,
                "input_args": parsed if isinstance(parsed, dict) else record.call.arguments,
                "output_summary": record.content[:100], "tool_duration_ms": round(record.duration_ms, 1),
                "status": "success" if record.result.success else "error"}

    def _on_stop(self, event, totals):
        return {"event": "run_end", "stop_reason": event.run.stop_reason, **totals}


ARGS = (StepTracer,)
