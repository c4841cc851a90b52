"""The course's ``ToolRegistry`` served over MCP with the official SDK's low-level ``Server``.

Each registry tool is listed with its own name, description and JSON Schema, unchanged (the SDK's
``FastMCP`` would rebuild schemas from signatures; the low-level server takes ours as they are).
``tools/call`` goes through ``ToolRegistry.dispatch``, so validation, timeouts and the Chinese error
texts are the registry's: a success is one text block holding the JSON of the data, a failure is
``isError: true`` with the error text. Read-only tools (level L1 without side effects) carry the
``readOnlyHint`` annotation, and every tool carries its level in ``_meta`` (``META``). An L0 tool is
listed (a client's policy can see what it is) but never run: its ``tools/call`` is refused with
``L0_REFUSAL`` — the server does not trust a client to keep the level.

Left out: authentication of HTTP clients (serve on 127.0.0.1 only), resumable streams, list-changed
notifications.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from ..tools import ToolRegistry

TOOL_SETS = ("office", "day3", "all")
META = "handwritten-agent/tool"
"""The ``_meta`` key carrying a tool's course metadata (level, side effects, untrusted), for a
client that runs this server itself and so may believe it
(``tools_from_listing(trusted_server=True)``)."""
L0_REFUSAL = "工具 {name} 是 L0（内部接口，例如导出全部客户）：这个服务器不替任何客户端调用它。"
"""The answer to a ``tools/call`` of an L0 tool: the server enforces the level itself, whoever the
client is.
"""
FIXED_NOW = datetime(2026, 3, 12, 14, 30)
"""The clock of the served tools, the same as the course's evaluation and notebooks."""


def course_registry(
    tools: str = "all",
    *,
    user: str = "E001",
    folder: str | Path | None = None,
    now: datetime = FIXED_NOW,
) -> ToolRegistry:
    """The registry to serve: the office tools acting as ``user``, the Day 3 tools, or both."""
    if tools not in TOOL_SETS:
        raise ValueError(f"--tools 只能是 {'、'.join(TOOL_SETS)} 之一，收到的是 {tools!r}。")
    registry = ToolRegistry()
    if tools in ("office", "all"):
        from ..scenarios.office import OfficeScenario

        for item in OfficeScenario.create(folder, now=now).registry(user):
            registry.register(item)
    if tools in ("day3", "all"):
        from ..scenarios import basic_registry

        for item in basic_registry(now):
            registry.register(item)
    return registry


def build_server(registry: ToolRegistry, name: str = "handwritten-agent") -> Any:
    """An ``mcp.server.lowlevel.Server`` listing and calling the tools of ``registry``."""
    from mcp import types
    from mcp.server.lowlevel import Server

    server: Any = Server(name)

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [
            types.Tool(
                name=item.name,
                description=item.description,
                inputSchema=item.parameters,
                annotations=types.ToolAnnotations(
                    readOnlyHint=not item.side_effects and item.level == "L1"
                ),
                _meta={
                    META: {
                        "level": item.level,
                        "side_effects": item.side_effects,
                        "untrusted": item.untrusted,
                    }
                },
            )
            for item in registry
        ]

    @server.call_tool(validate_input=False)  # the registry validates, in Chinese
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        import anyio

        item = registry.get(name)
        if (
            item is not None and item.level == "L0"
        ):  # listed so a client's policy can see it, never run for one
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=L0_REFUSAL.format(name=name))],
                isError=True,
            )
        result = await anyio.to_thread.run_sync(registry.dispatch, name, arguments)
        if result.success:
            text = json.dumps(result.data, ensure_ascii=False, default=str)
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=text)], isError=False
            )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.error or "工具调用失败")],
            isError=True,
        )

    return server


async def serve_stdio(server: Any) -> None:
    """Serve on this process's stdin/stdout until the client closes them."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def http_app(server: Any) -> Any:
    """A Starlette app serving ``server`` over streamable HTTP at ``/mcp`` (JSON responses,
    stateless).
    """
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Mount

    manager = StreamableHTTPSessionManager(app=server, json_response=True, stateless=True)

    async def handle(scope: Any, receive: Any, send: Any) -> None:
        await manager.handle_request(scope, receive, send)

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with manager.run():
            yield

    return Starlette(routes=[Mount("/mcp", app=handle)], lifespan=lifespan)


def serve_http(server: Any, host: str = "127.0.0.1", port: int = 8766) -> None:
    """Serve over streamable HTTP at ``http://host:port/mcp/`` in the foreground until Ctrl+C."""
    import uvicorn

    uvicorn.run(http_app(server), host=host, port=port, log_level="warning")


__all__ = [
    "FIXED_NOW",
    "TOOL_SETS",
    "build_server",
    "course_registry",
    "http_app",
    "serve_http",
    "serve_stdio",
]
