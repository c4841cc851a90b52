"""A server's ``tools/list`` as registry ``Tool`` objects whose calls go through ``tools/call``.

``tools_from_listing(listing, call)`` is the whole idea: each entry's ``name``, ``description`` and
``inputSchema`` become a ``Tool`` (the schema kept whole: ``required`` and all), and the tool's
function sends ``tools/call`` and turns the answer into a ``ToolResult``: ``isError`` → an error
result; the ``content`` list (not a string) → its text blocks joined, read back as JSON when it is
JSON; ``structuredContent`` when the server gives it. A server that fails, answers nonsense or does
not answer in time becomes an error result in Chinese, never an exception out of the loop.

Foreign tools are never trusted: every one is ``untrusted`` (Day 5's gate marks its results as
external text), and its level is ``default_level`` (L2: confirm) unless the server's annotations say
``readOnlyHint`` (then ``read_only_level``; pass ``trust_annotations=False`` not to believe them
either). Names are checked: a name the model API refuses is rewritten (its ASCII part and a short
hash of the original, so Chinese names stay apart), a collision raises ``ValueError`` (use
``prefix``). Only for a server you run yourself, ``trusted_server=True``
believes the course metadata it sends in ``_meta`` (``server.META``: level, side effects, untrusted)
— the same tools, the same gate. Each tool remembers the hash of what it was listed with
(``metadata["mcp_hash"]``), for ``pins.PinnedTools``.

Left out: resources, prompts, output-schema validation and list-changed notifications
(``MCPToolbox`` re-lists on ``refresh()``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from ..tools import Tool, ToolError, ToolRegistry, ToolResult, level_name
from .server import META
from .wire import WireError

CallFn = Callable[[str, dict[str, Any]], dict[str, Any]]
_VALID_NAME = re.compile(r"[^A-Za-z0-9_-]")


def definition_hash(entry: dict[str, Any]) -> str:
    """A hash of what the model reads about a tool: its name, description and input schema."""
    shown = {key: entry.get(key) for key in ("name", "description", "inputSchema")}
    return hashlib.sha256(
        json.dumps(shown, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()[:16]


def result_to_tool_result(name: str, result: Any) -> ToolResult:
    """A ``tools/call`` result (a dict) as the course's ``{success, data, error}`` envelope."""
    if not isinstance(result, dict):
        return ToolResult.fail(
            f"工具 {name} 的 MCP 服务器返回了无法识别的结果（{type(result).__name__}）。"
        )
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    texts: list[str] = []
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "text":
            texts.append(str(block.get("text", "")))
        elif isinstance(block, dict):
            texts.append(f"[{block.get('type', '未知')} 内容，已略去]")
    text = "\n".join(texts)
    if result.get("isError"):
        return ToolResult.fail(f"工具 {name} 报告错误：{text or '（服务器没有给出原因）'}")
    if "structuredContent" in result and result["structuredContent"] is not None:
        return ToolResult.ok(result["structuredContent"])
    try:
        return ToolResult.ok(json.loads(text)) if len(texts) == 1 else ToolResult.ok(text)
    except ValueError:
        return ToolResult.ok(text)


_MAX_NAME = 64


def safe_name(name: str, prefix: str = "") -> str:
    """A name the chat-completions API accepts (letters, digits, ``_``, ``-``; at most 64
    characters).

    A valid name is kept as it is. A name that had to change (Chinese, spaces, punctuation, too
    long) keeps its ASCII part and gains 8 hex digits of its original's SHA-256, so two names that
    differ only in what was replaced (``查询订单`` and ``取消订单``, or two long names with the same
    first 64 characters) stay two names, and the same name always gets the same rewrite.
    """
    whole = f"{prefix}{name}"
    if whole and not _VALID_NAME.search(whole) and len(whole) <= _MAX_NAME:
        return whole
    digest = hashlib.sha256(whole.encode("utf-8")).hexdigest()[:8]
    kept = re.sub(r"_{2,}", "_", _VALID_NAME.sub("_", whole)).strip("_-")
    return f"{kept[: _MAX_NAME - len(digest) - 1]}_{digest}" if kept else f"tool_{digest}"


def tools_from_listing(
    listing: Iterable[dict[str, Any]],
    call: CallFn,
    *,
    server: str = "mcp",
    prefix: str = "",
    default_level: str = "L2",
    read_only_level: str = "L1",
    trust_annotations: bool = True,
    timeout: float = 20.0,
    trusted_server: bool = False,
) -> list[Tool]:
    """One ``Tool`` per ``tools/list`` entry; calling it sends ``tools/call`` through ``call(name,
    arguments)``.
    """
    tools: list[Tool] = []
    seen: dict[str, str] = {}
    for entry in listing:
        remote = str(entry.get("name", ""))
        if not remote:
            continue
        local = safe_name(remote, prefix)
        if local in seen:
            raise ValueError(
                f"MCP 服务器 {server} 的工具 {remote!r} 和 {seen[local]!r} 重名（都叫 {local!r}）。"
                "请给这个服务器的工具加一个 prefix。"
            )
        seen[local] = remote
        schema = entry.get("inputSchema")
        parameters = (
            dict(schema) if isinstance(schema, dict) else {"type": "object", "properties": {}}
        )
        parameters.setdefault("type", "object")
        parameters.setdefault("properties", {})
        annotations = entry.get("annotations") or {}
        read_only = bool(trust_annotations and annotations.get("readOnlyHint") is True)
        level, side_effects, untrusted = (
            (read_only_level if read_only else default_level),
            not read_only,
            True,
        )
        own = (entry.get("_meta") or {}).get(META) if trusted_server else None
        if isinstance(own, dict):  # our own server, started by us: its course metadata is believed
            level, side_effects = (
                own.get("level", level),
                bool(own.get("side_effects", side_effects)),
            )
            untrusted = bool(own.get("untrusted", False))
        tools.append(
            Tool(
                name=local,
                description=str(entry.get("description") or ""),
                parameters=parameters,
                fn=_caller(call, remote, timeout),
                level=level_name(level),
                side_effects=side_effects,
                timeout=timeout + 5,
                untrusted=untrusted,
                metadata={
                    "mcp_server": server,
                    "mcp_name": remote,
                    "mcp_hash": definition_hash(entry),
                },
            )
        )
    return tools


def _caller(call: CallFn, remote: str, timeout: float) -> Callable[..., ToolResult]:
    def invoke(**arguments: Any) -> ToolResult:
        try:
            result = call(remote, arguments)
        except WireError as exc:
            raise ToolError(f"调用 MCP 工具 {remote} 失败：{exc}") from exc
        except Exception as exc:
            raise ToolError(
                f"调用 MCP 工具 {remote} 失败（{type(exc).__name__}：{exc}）。"
            ) from exc
        return result_to_tool_result(remote, result)

    return invoke


class MCPToolbox:
    """The tools of one MCP server, over a connection with ``list_tools()`` and ``call_tool()``.

    ``connection`` is a ``WireClient`` (initialized) or an ``SDKConnection``. ``refresh()`` lists
    again and updates the tools in place, as a client does when a server says its list changed;
    ``listing()`` asks the server for its current definitions without changing anything.
    """

    def __init__(
        self, connection: Any, *, server: str = "mcp", timeout: float = 20.0, **options: Any
    ):
        self.connection, self.server, self.timeout, self.options = (
            connection,
            server,
            timeout,
            options,
        )
        self.tools = tools_from_listing(
            self.listing(), self._call, server=server, timeout=timeout, **options
        )

    def _call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.connection.call_tool(name, arguments, timeout=self.timeout)

    def listing(self) -> list[dict[str, Any]]:
        return list(self.connection.list_tools())

    def current_hashes(self) -> dict[str, str]:
        """The server's current definition hash of each tool, by remote name (a fresh
        ``tools/list``).
        """
        return {str(entry.get("name")): definition_hash(entry) for entry in self.listing()}

    def refresh(self) -> list[Tool]:
        fresh = {
            item.name: item
            for item in tools_from_listing(
                self.listing(), self._call, server=self.server, timeout=self.timeout, **self.options
            )
        }
        for item in self.tools:
            new = fresh.get(item.name)
            if new is not None:
                item.description, item.parameters = new.description, new.parameters
                item.metadata.update(new.metadata)
        return self.tools

    def registry(self, *extra: Tool) -> ToolRegistry:
        return ToolRegistry([*self.tools, *extra])


__all__ = [
    "MCPToolbox",
    "definition_hash",
    "result_to_tool_result",
    "safe_name",
    "tools_from_listing",
]
