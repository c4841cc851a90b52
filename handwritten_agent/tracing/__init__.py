"""Day 6 — 日志与可观测性: a JSONL trace of every step of a run, and what you do with it.

One idea per module:

- ``tracer``    ``Tracer``: a hook of the Agent writing one redacted JSON line per event
- ``fields``    the line's field names: the reference articles' log fields and the
                OpenTelemetry GenAI names
- ``writer``    append-only JSONL, one unbuffered write per line (a crash loses at most one line)
- ``reading``   reading a trace back (a cut-off last line is skipped with a warning), runs, lines
- ``redact``    secrets and personal data removed before anything is written
- ``cost``      a price table (cached input too), cost per run and per day, a ``Budget`` that stops
                a run, a daily bill alert
- ``diagnose``  ``diagnose(trace) -> [Finding]`` for each row of the reference articles' error
                table, the tool-time share, and the five-step check
- ``replay``    ``replay(trace)`` re-runs the loop on recorded replies and reports where it diverges
- ``table``, ``timeline``, ``html``  looking at a run: a table of steps, a picture, a self-contained
                                     page
- ``otel``      the same trace as OpenTelemetry spans (optional ``[otel]`` extra)

Beside it, outside the package because they are not about traces: ``tool_cache.ToolCache`` (TTL
caching of read-only tools, truncation of long results; both noted in the trace) and
``llm.StreamingClient``.

Left out: a log platform, sampling, and dashboards — the trace is a file any of them can read.
"""

from __future__ import annotations

from .cost import Budget, CostTotal, Price, PriceTable, cost_report
from .diagnose import Finding, diagnose, five_steps
from .fields import SEED_TO_OTEL
from .reading import Trace, TraceRun, TraceWarning, read_trace
from .redact import Redactor, environment_secrets
from .replay import Divergence, ReplayResult, replay
from .table import format_steps, steps_table
from .tracer import Tracer

__all__ = [
    "Budget",
    "CostTotal",
    "Divergence",
    "Finding",
    "Price",
    "PriceTable",
    "Redactor",
    "ReplayResult",
    "SEED_TO_OTEL",
    "Trace",
    "TraceRun",
    "TraceWarning",
    "Tracer",
    "cost_report",
    "diagnose",
    "environment_secrets",
    "five_steps",
    "format_steps",
    "read_trace",
    "replay",
    "steps_table",
]
