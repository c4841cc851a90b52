"""The agent each run gets: Days 3–6 put together — the loop, the office tools behind the permission gate,
memory per session, a trace per run.

Left out: choosing tools per request (every run gets the same registry for its user's role).
"""

from __future__ import annotations

from typing import Any, Callable

from ..agent import Agent, AgentEvent
from ..llm import connect
from ..scenarios import basic_registry
from .settings import ServiceSettings
from .store import User


def default_agent_factory(settings: ServiceSettings) -> Callable[[User, str, Callable[[AgentEvent], None]], Agent]:
    client = connect(quiet=True, settings=settings.llm) if settings.llm is not None else connect(quiet=True)
    registry = basic_registry()

    def make_agent(user: User, session_id: str, on_event: Callable[[AgentEvent], None]) -> Agent:
        return Agent(client, registry, max_steps=settings.max_steps, on_event=on_event, user=user)

    return make_agent


def make_decision(decision: dict[str, Any], owner: User) -> Any:
    """A stored decision row → the decision object the permission gate understands."""
    from ..permissions import approve, reject

    return approve() if decision["decision"] == "approve" else reject(decision.get("reason") or "未说明原因")
