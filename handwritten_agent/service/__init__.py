"""The office assistant as a service (Day 7): a FastAPI app over SQLite with runs, SSE events,
confirmations that survive a restart, and idempotency keys.

- ``store``     the SQLite file: users (hashed tokens, roles), runs, events, idempotency keys, decisions
- ``runner``    runs in worker threads; pause, resume, cancel; events written as they happen
- ``app``       the HTTP API (``create_app(settings)``)
- ``agents``    the agent each run gets (Days 3–6 together)
- ``settings``  limits and paths

Run it: ``python -m handwritten_agent users add 张三 --role 行政助理`` (prints the token once), then
``python -m handwritten_agent service --port 8000``.
"""

from .app import create_app
from .settings import ServiceSettings
from .store import Store, User

__all__ = ["ServiceSettings", "Store", "User", "create_app"]
