"""The service's settings: where its files live, which models, how many runs at once, the agent's
limits, and the limits on what clients send.

The model comes from ``.env`` like in every notebook unless ``llm`` is given; a fallback model from
``LLM_FALLBACK_*`` (see ``models``) unless ``fallback_model``/``fallback_llm`` are given.

The limits on single fields (message length, …) are constraints of the request models in
``schemas``.

Left out: reading these fields from the environment (the command line sets the few that matter:
``--db``, ``--workers``, ``--model``, ``--env-file``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from ..config import Settings


def default_db_path() -> str:
    return str(Path.cwd() / "var" / "service.sqlite3")


@dataclass
class ServiceSettings:
    db_path: str = field(default_factory=default_db_path)
    """The database with users, runs, events, idempotency keys and decisions: a SQLite file (a
    path, or ``sqlite:///path``; created if missing) or ``postgresql://user@host/db`` (several
    replicas may share it; ``pip install -e '.[postgres]'``). Its schema is migrated at start.
    """
    llm: Settings | None = None
    """The model; None reads ``.env`` / the environment like every notebook (the offline simulator
    by default).
    """
    model: str | None = None
    """Another model name on the same server (e.g. ``course-sim:server_error`` to watch the fallback
    work).
    """
    fallback_llm: Settings | None = None
    """A second server to fall back to; None reads ``LLM_FALLBACK_*`` from ``.env`` (see
    ``models``).
    """
    fallback_model: str | None = None
    """The fallback's model name (on ``fallback_llm``, or on the primary's server when that is
    None).
    """
    fallback_context_window: int | None = None
    """The fallback's context window in tokens: the conversation is trimmed to it before the
    switch.
    """
    workers: int = 4
    """Runs executed at the same time; more wait in ``queued``."""
    lease_seconds: float = 30.0
    """A running run whose process has not renewed its lease for this long is marked failed (that
    process died).
    """
    heartbeat_seconds: float = 5.0
    """How often a process renews the leases of the runs it executes (and looks for runs of dead
    processes).
    """
    max_steps: int = 8
    """Model calls per run at most (the loop's bound)."""
    max_seconds: float | None = None
    """Seconds a run may take before its next model call is refused (``timeout``); None:
    ``max_steps`` and the model's own timeout bound it (a local model on a CPU can take minutes per
    call)."""
    max_body_bytes: int = 64 * 1024
    """A request body larger than this is refused with 413 before it is parsed."""
    idempotency_ttl: float = 24 * 3600
    """Seconds an Idempotency-Key is remembered (Stripe keeps them 24 hours)."""
    sse_poll_seconds: float = 0.5
    """How often the process's poller asks the store about the runs being streamed: a write in this
    process wakes a stream at once, one by another process (``uvicorn --workers N``) is seen within
    this time."""
    sse_keepalive_seconds: float = 15.0
    """An idle event stream sends a comment this often, so proxies and browsers do not drop the
    connection.
    """
    sse_retry_ms: int = 3000
    """The ``retry:`` an event stream announces: how long a client waits before reconnecting after a
    cut.
    """
    sse_max_idle: float = 300.0
    """An event stream with nothing new for this long is closed (the client reconnects with
    Last-Event-ID).
    """
    data_dir: str | None = None
    """Where traces and the office database go; None: a folder named after the database, beside it
    (``service.sqlite3`` → ``service.data/``), so two services with different databases never share
    one."""
    token_budget: int = 6000
    """Tokens a request may use: older rounds are trimmed to fit (Day 4)."""
    trace: bool = True
    """Write a JSONL trace per run under ``data_path / "traces"`` (Day 6)."""
    clock: Callable[[], datetime] | None = None
    """The office's clock, also the date the system prompt states; None is the real time (tests fix
    it).
    """

    @property
    def data_path(self) -> Path:
        if self.data_dir:
            return Path(self.data_dir)
        if self.db_path.startswith(("postgresql://", "postgres://")):
            # the database's name, under ./var: each replica keeps its own traces and office copy
            name = urlsplit(self.db_path).path.strip("/") or "postgres"
            return Path.cwd() / "var" / f"{name}.data"
        db = Path(self.db_path.removeprefix("sqlite:///"))
        return db.parent / f"{db.stem}.data"
