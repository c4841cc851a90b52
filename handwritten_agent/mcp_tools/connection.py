"""The official SDK's ``ClientSession`` behind a blocking interface, for the synchronous Day 3 loop.

``SDKConnection`` runs one asyncio event loop in a daemon thread; a single task opens the transport
(streamable HTTP at ``url``, stdio for ``command``, or in memory to a low-level ``Server`` object
running in the same loop for ``server``, as exercise checks do) and the session, and keeps them
open until ``close()``. ``list_tools()`` and ``call_tool()`` submit coroutines to that loop and
wait with a timeout, returning plain dicts shaped like the wire (``{"tools": [...]}`` entries,
``{"content": [...], "isError": …}``), the same as ``WireClient`` — so the adapter works with
either; after ``close()`` they raise ``WireError`` in Chinese.

Left out: reconnecting after the server goes away (the next call fails with a readable error).
"""

from __future__ import annotations

import asyncio
import threading
from contextlib import AsyncExitStack
from typing import Any

from .wire import WireError


class SDKConnection:
    """A blocking MCP client on the SDK: ``SDKConnection(url=...)`` or
    ``SDKConnection(command=[...])``.
    """

    def __init__(
        self,
        *,
        url: str | None = None,
        command: list[str] | None = None,
        server: Any = None,
        timeout: float = 20.0,
    ):
        if sum(option is not None for option in (url, command, server)) != 1:
            raise ValueError("SDKConnection 需要 url、command、server 三者之一。")
        self.url, self.command, self.server, self.timeout = url, command, server, timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="mcp-sdk-loop", daemon=True
        )
        self._thread.start()
        self._session: Any = None
        self._closed: asyncio.Event | None = None
        self._main: Any = None
        ready: Any = asyncio.run_coroutine_threadsafe(self._ready_event(), self._loop).result(
            timeout
        )
        self._main = asyncio.run_coroutine_threadsafe(self._run(ready), self._loop)
        try:
            asyncio.run_coroutine_threadsafe(
                asyncio.wait_for(ready.wait(), timeout), self._loop
            ).result(timeout + 5)
        except Exception as exc:
            self.close()
            raise WireError(f"无法连接 MCP 服务器（{type(exc).__name__}：{exc}）。") from exc
        if self._session is None:
            error = self._main.exception() if self._main.done() else None
            self.close()
            raise WireError(f"无法连接 MCP 服务器（{error}）。")

    async def _ready_event(self) -> asyncio.Event:
        self._closed = asyncio.Event()
        return asyncio.Event()

    async def _run(self, ready: asyncio.Event) -> None:
        from mcp import ClientSession

        try:
            async with AsyncExitStack() as stack:
                if self.server is not None:  # in memory: the server runs as a task of this loop
                    from mcp.shared.memory import create_connected_server_and_client_session

                    self._session = await stack.enter_async_context(
                        create_connected_server_and_client_session(self.server)
                    )
                    ready.set()
                    assert self._closed is not None
                    await self._closed.wait()
                    return
                if self.url is not None:
                    try:
                        from mcp.client.streamable_http import streamable_http_client
                    except ImportError:  # mcp < 1.24 named it streamablehttp_client
                        from mcp.client.streamable_http import (
                            streamablehttp_client as streamable_http_client,
                        )

                    streams = await stack.enter_async_context(streamable_http_client(self.url))
                else:
                    from mcp import StdioServerParameters
                    from mcp.client.stdio import stdio_client

                    assert self.command is not None
                    params = StdioServerParameters(
                        command=self.command[0], args=list(self.command[1:])
                    )
                    streams = await stack.enter_async_context(stdio_client(params))
                session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
                await session.initialize()
                self._session = session
                ready.set()
                assert self._closed is not None
                await self._closed.wait()
        finally:
            ready.set()

    def _call(self, coro: Any, timeout: float | None, what: str) -> Any:
        if self._session is None:
            coro.close()
            raise WireError("MCP 连接已经关闭。")
        wait = self.timeout if timeout is None else timeout
        future = asyncio.run_coroutine_threadsafe(asyncio.wait_for(coro, wait), self._loop)
        try:
            return future.result(wait + 5)
        except (asyncio.TimeoutError, TimeoutError):
            raise WireError(f"MCP 服务器在 {wait:g} 秒内没有回答 {what}。") from None
        except Exception as exc:
            raise WireError(f"MCP 服务器出错（{type(exc).__name__}：{exc}）。") from exc

    def _open(self) -> Any:
        if self._session is None:
            raise WireError(
                "和 MCP 服务器的连接已经关闭（close() 之后不能再调用）；需要时重新连接。"
            )
        return self._session

    def list_tools(self) -> list[dict[str, Any]]:
        result = self._call(self._open().list_tools(), None, "tools/list")
        return [
            item.model_dump(mode="json", exclude_none=True, by_alias=True) for item in result.tools
        ]

    def call_tool(
        self, name: str, arguments: dict[str, Any], timeout: float | None = None
    ) -> dict[str, Any]:
        result = self._call(self._open().call_tool(name, arguments), timeout, "tools/call")
        return result.model_dump(mode="json", exclude_none=True, by_alias=True)

    def close(self) -> None:
        if self._closed is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._closed.set)
            if self._main is not None:
                try:
                    self._main.result(10)
                except Exception:
                    pass
        self._session = None
        if self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    def __enter__(self) -> SDKConnection:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["SDKConnection"]
