"""Keeps the registry in a default argument (``registry=ToolRegistry()``): Python makes that object
once, so the second server's tools land in the first server's registry (a shared mutable default)."""

import json

from handwritten_agent.mcp_tools.adapter import definition_hash
from handwritten_agent.tools import Tool, ToolRegistry, ToolResult


def remote_call(connection, name, timeout):
    def call(**arguments):
        try:
            result = connection.call_tool(name, arguments, timeout=timeout)
        except Exception as exc:  # noqa: BLE001
            return ToolResult.fail(f"调用 MCP 工具 {name} 失败：{exc}")
        text = "\n".join(b.get("text", "") for b in result.get("content", []) if b.get("type") == "text")
        if result.get("isError"):
            return ToolResult.fail(f"MCP 工具 {name} 报告错误：{text or '（服务器没有给出原因）'}")
        try:
            return ToolResult.ok(json.loads(text))
        except ValueError:
            return ToolResult.ok(text)

    return call


def adapt_server(connection, server, timeout=5.0, registry=ToolRegistry()):
    for entry in connection.list_tools():
        if entry["name"] in registry.names():
            continue
        read_only = (entry.get("annotations") or {}).get("readOnlyHint") is True
        registry.register(Tool(
            name=entry["name"], description=entry.get("description", ""),
            parameters=entry["inputSchema"], fn=remote_call(connection, entry["name"], timeout),
            level="L1" if read_only else "L2", side_effects=not read_only, untrusted=True,
            metadata={"mcp_server": server, "mcp_name": entry["name"], "mcp_hash": definition_hash(entry)},
        ))
    return registry


ARGS = (adapt_server,)
