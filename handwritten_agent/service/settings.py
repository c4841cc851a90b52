"""The service's settings: where its database lives, how many runs at once, and the limits on what clients send.

Left out: the model (the same ``.env`` settings as the notebooks: ``config.load_settings``) and the agent's
own limits, which ``agents.default_agent_factory`` takes from here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..config import Settings


def default_db_path() -> str:
    return str(Path.cwd() / "var" / "service.sqlite3")


@dataclass
class ServiceSettings:
    db_path: str = field(default_factory=default_db_path)
    """The SQLite file with users, runs, events, idempotency keys and decisions (created if missing)."""
    llm: Settings | None = None
    """The model; None reads ``.env`` / the environment like every notebook (the offline simulator by default)."""
    workers: int = 4
    """Runs executed at the same time; more wait in ``queued``."""
    max_steps: int = 8
    max_body_bytes: int = 64 * 1024
    max_message_chars: int = 4000
    idempotency_ttl: float = 24 * 3600
    """Seconds an Idempotency-Key is remembered (Stripe keeps them 24 hours)."""
    sse_poll_seconds: float = 0.05
    sse_max_idle: float = 300.0
    """An event stream with nothing new for this long is closed (the client reconnects with Last-Event-ID)."""
    data_dir: str | None = None
    """Where traces and the office database go; None puts them next to ``db_path``."""
    token_budget: int = 6000
    """Tokens a request may use: older rounds are trimmed to fit (Day 4)."""

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir) if self.data_dir else Path(self.db_path).parent
