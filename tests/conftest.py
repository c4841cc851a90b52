"""Shared fixtures: the real offline server (course simulator, fixed clock) and an SDK client for
it.

- ``offline_server``  one ``serve()`` for the whole session: the CourseSimulator on a free port with
                      the clock fixed at 2026-03-12 14:30, stopped at the end.
- ``sdk``             ``openai.OpenAI`` pointed at it, with ``max_retries=0`` so faults surface at
                      once.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import openai
import pytest

FIXED_NOW = datetime(2026, 3, 12, 14, 30)


@pytest.fixture(scope="session")
def offline_server() -> Iterator[Any]:
    from handwritten_agent.course.offline import serve

    server = serve(
        backend="offline", now=FIXED_NOW
    )  # "offline" = the CourseSimulator, imported lazily
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def sdk(offline_server) -> openai.OpenAI:
    return openai.OpenAI(base_url=offline_server.base_url, api_key="test", max_retries=0)
