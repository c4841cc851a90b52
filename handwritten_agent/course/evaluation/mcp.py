"""The course's office evaluation with the office tools served over MCP, to compare with in-process.

``mcp_world_factory`` is ``evaluation.office_world_factory`` with one change: each case's office
tools come from a fresh ``mcp-serve --tools office`` child process (``python -m
handwritten_agent.mcp_tools``, which skips a slow optional import; stdio, the hand-written
``WireClient``) acting on that case's database, turned into registry tools by
``MCPToolbox(trusted_server=True)`` — the server is our own, so its levels are believed and the same
gate applies. Same agent, same policy, same cases: the scores should be the same. ``close()`` stops
every server started.

Left out: HTTP here (the tests run one agent over HTTP separately); parallel cases.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...mcp_tools.adapter import MCPToolbox
from ...mcp_tools.wire import WireClient
from ...scenarios.office import OfficeScenario
from ...tools import ToolRegistry


class _ServedOffice(OfficeScenario):
    """An office whose database a server made, and whose tools come from that server."""

    def __init__(self, folder: Path, now: Any, toolbox: MCPToolbox):
        super().__init__(folder, now if callable(now) else (lambda: now))
        self.toolbox = toolbox

    def registry(self, user: Any) -> ToolRegistry:
        return self.toolbox.registry()


class MCPWorlds:
    """A world factory for ``evaluate`` whose office tools run behind an MCP server (see the module
    docstring).
    """

    def __init__(
        self,
        client: Any,
        *,
        root: str | Path,
        max_steps: int = 8,
        token_budget: int = 6000,
        check_claims: bool = True,
        hooks: Sequence[Any] = (),
    ):
        self.client, self.root, self.max_steps = client, Path(root), max_steps
        self.token_budget, self.check_claims, self.hooks = token_budget, check_claims, list(hooks)
        self.servers: list[WireClient] = []
        self._n = 0

    def __call__(self, case: Any) -> Any:
        from ...permissions import User, approve, reject
        from ...scenarios.office import APPROVER_ROLE
        from ...service.agents import office_agent
        from .engine import World
        from .office_cases import ACTING, APPROVER, NOW

        self._n += 1
        folder = self.root / f"{self._n:03d}_{case.id}"
        server = WireClient(
            [
                sys.executable,
                "-m",
                "handwritten_agent.mcp_tools",  # mcp-serve, with the fast start (``startup``)
                "--tools",
                "office",
                "--user",
                ACTING[0],
                "--folder",
                str(folder),
            ]
        )
        self.servers.append(server)
        server.initialize()
        office = _ServedOffice(
            folder, NOW, MCPToolbox(server, server="office", trusted_server=True)
        )
        user = User(ACTING[0], role=case.role, name=ACTING[1])
        approver = User(APPROVER[0], role=APPROVER_ROLE, name=APPROVER[1])
        agent = office_agent(
            self.client,
            office,
            office.policy(),
            user,
            now=NOW,
            max_steps=self.max_steps,
            token_budget=self.token_budget,
            check_claims=self.check_claims,
            hooks=list(self.hooks),
        )

        def decide(request: Any, verdict: str) -> Any:
            by = approver if getattr(request, "approver_role", None) else user
            return (
                approve(by=by)
                if verdict == "approve"
                else reject("评测里用户拒绝了这个操作", by=by)
            )

        return World(agent, office.db_path, decide)

    def close(self) -> None:
        for server in self.servers:
            server.close()
        self.servers.clear()


def mcp_world_factory(client: Any, **options: Any) -> Callable[[Any], Any]:
    """``MCPWorlds(client, **options)``; call its ``close()`` after ``evaluate``."""
    return MCPWorlds(client, **options)


__all__ = ["MCPWorlds", "mcp_world_factory"]
