"""Cuts output_summary at 99 characters (content[:99]): one character short of the 100 the task asks for."""

import copy
import json
import re
from datetime import datetime
from pathlib import Path
from handwritten_agent.course.evaluation import EvalCase, ExpectedCall, OneOf, StateCheck
from handwritten_agent.course.exercises.check.day6 import EVAL_REQUEST

class StepTracer:
    """手写的 tracer：每次模型调用、每个工具结果、每次运行结束各写一行 JSON，并带上这次运行的 token 合计。"""

    def __init__(self, path, session_id, user_id):
        self.path, self.session_id, self.user_id = Path(path), session_id, user_id
        self.totals = {}  # request_id -> 从最近一次 run_start 以来这段运行的合计

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
                        output_summary=record.content[:99], tool_duration_ms=round(record.duration_ms, 1),
                        status="success" if record.result.success else "error")
        else:
            line.update(event="run_end", stop_reason=event.run.stop_reason, **totals)
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line, ensure_ascii=False) + "\n")


ARGS = (StepTracer,)
