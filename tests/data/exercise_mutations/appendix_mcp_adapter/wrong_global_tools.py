"""Wrong: keeps every tool ever listed in a module-level dict, so a second server's registry holds
the first one's tools."""

import json

from handwritten_agent.mcp_tools.adapter import definition_hash
from handwritten_agent.tools import Tool, ToolRegistry, ToolResult


def remote_call(connection, name, timeout):
    def call(**arguments):
        try:
            result = connection.call_tool(name, arguments, timeout=timeout)
        except Exception as exc:
            return ToolResult.fail(f"调用 MCP 工具 {name} 失败：{exc}")
        text = "\n".join(
            block.get("text", "")
            for block in result.get("content", [])
            if block.get("type") == "text"
        )
        if result.get("isError"):
            return ToolResult.fail(f"MCP 工具 {name} 报告错误：{text}")
        try:
            return ToolResult.ok(json.loads(text))
        except ValueError:
            return ToolResult.ok(text)

    return call


_SEEN = {}


def adapt_server(connection, server, timeout=5.0):
    registry = ToolRegistry()
    for entry in connection.list_tools():
        read_only = (entry.get("annotations") or {}).get("readOnlyHint") is True
        registry.register(
            Tool(
                name=entry["name"],
                description=entry.get("description", ""),
                parameters=entry["inputSchema"],
                fn=remote_call(connection, entry["name"], timeout),
                level="L1" if read_only else "L2",
                side_effects=not read_only,
                untrusted=True,
                metadata={
                    "mcp_server": server,
                    "mcp_name": entry["name"],
                    "mcp_hash": definition_hash(entry),
                },
            )
        )
    _SEEN.update({item.name: item for item in registry})
    return ToolRegistry(list(_SEEN.values()))


FAILS_AT = "每个服务器一个新的注册表"
ARGS = (adapt_server,)
