"""The office assistant as a service (Day 7): a FastAPI app over SQLite with runs, SSE events,
confirmations that survive a restart, and idempotency keys.

- ``store``     the SQLite file: users (hashed tokens, roles), runs (with leases), events, idempotency keys, decisions, sessions
- ``runner``    runs in worker threads; pause, resume, cancel; events written as they happen; leases for several processes
- ``app``       the HTTP API (``create_app(settings)``; ``from_environment()`` for ``uvicorn --factory --workers N``)
- ``agents``    the agent each run gets: the office tools behind the policy, memory, a trace, today's date (Days 3–6 together)
- ``models``    the primary model from ``.env`` and the fallback from ``LLM_FALLBACK_*``
- ``settings``  limits and paths
- ``cli``       ``users add`` and ``service``

Run it: ``python -m handwritten_agent users add 张三 --role 行政助理`` (prints the token once), then
``python -m handwritten_agent service --port 8000``.

Left out: a web front end (the Day 7 notebook drives the API with httpx), TLS (put a reverse proxy in
front), and a store on anything but SQLite (the README's scale-out section says what changes).
"""

from .app import create_app
from .settings import ServiceSettings
from .store import Store, User

__all__ = ["ServiceSettings", "Store", "User", "create_app"]
