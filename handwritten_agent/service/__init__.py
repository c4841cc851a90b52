"""The office assistant as a service (Day 7): a FastAPI app over SQLite with runs, SSE events,
confirmations that survive a restart, and idempotency keys.

- ``store``     the SQLite file: users (hashed tokens, roles), runs (with leases), events,
                idempotency keys, decisions, sessions
- ``runner``    runs in worker threads; pause, resume, cancel; events written as they happen; leases
                for several processes
- ``app``       the HTTP API (``create_app(settings)``; ``from_environment()`` for ``uvicorn
                --factory --workers N``)
- ``schemas``   the pydantic request and response models (what ``/docs`` shows)
- ``errors``    the one error shape, and the guards on request bodies
- ``static``    the web page served at ``/`` (plain HTML and JavaScript)
- ``agents``    the agent each run gets: the office tools behind the policy, memory, a trace,
                today's date (Days 3–6 together)
- ``models``    the primary model from ``.env`` and the fallback from ``LLM_FALLBACK_*``
- ``settings``  limits and paths
- ``course.cli.service``  ``users add|list|remove`` and ``service``

Run it: ``python -m handwritten_agent users add 张三 --role 行政助理`` (prints the token once), then
``python -m handwritten_agent service --port 8000`` and open http://127.0.0.1:8000/ (or /docs).

Left out: TLS (put a reverse proxy in front), and a store on anything but SQLite (the README's
scale-out section says what changes).
"""

from .app import create_app
from .settings import ServiceSettings
from .store import Store, User

__all__ = ["ServiceSettings", "Store", "User", "create_app"]
