"""Reporting into the current run from code that is not a hook: a client's retries, a fallback
switch, a cache hit.

While the loop calls the model and each tool it puts the step's context in a context variable
(``within``); ``report(kind, **data)`` called anywhere below — inside ``ChatClient``, a
``FallbackClient``, a ``ToolCache``, a tool — adds an event of that kind to the step, and the loop
yields it to every hook and to ``iter_run``'s caller. Nothing is wired by hand, and code used
outside a run (a client called directly) reports nothing: ``report`` returns False.

Threads see the context only when started with ``contextvars.copy_context()`` (the tool timeout's
thread is). Left out: asyncio tasks started by a tool (they copy the context themselves) and
reporting from another process.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol


class Reports(Protocol):
    """Anything with ``report(kind, **data)`` — the loop's ``HookContext``."""

    def report(self, kind: str, **data: Any) -> None: ...


_CURRENT: ContextVar[Reports | None] = ContextVar("handwritten_agent_step", default=None)


@contextmanager
def within(step: Reports) -> Iterator[Reports]:
    """Run the enclosed code as part of ``step``: ``report`` inside it (in this thread) adds events
    to it.
    """
    token = _CURRENT.set(step)
    try:
        yield step
    finally:
        _CURRENT.reset(token)


def report(kind: str, **data: Any) -> bool:
    """Add an event of ``kind`` to the run the calling code is part of; False (nothing recorded)
    outside a run.
    """
    step = _CURRENT.get()
    if step is None:
        return False
    step.report(kind, **data)
    return True


__all__ = ["Reports", "report", "within"]
