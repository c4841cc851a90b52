"""Correct, another style: the remote result read with a ``match`` statement, the tool's fields
built as a dict and passed with ``**``, the function made by a small factory."""

import json

from handwritten_agent.mcp_tools.adapter import definition_hash
from handwritten_agent.tools import Tool, ToolRegistry, ToolResult


def _read(name, reply):
    text = "\n".join(b.get("text", "") for b in reply.get("content", []) if b.get("type") == "text")
    match reply:
        case {"isError": True}:
            return ToolResult.fail(f"{name} 返回了错误：{text or '服务器没有说明原因'}")
        case _:
            try:
                return ToolResult.ok(json.loads(text))
            except ValueError:
                return ToolResult.ok(text)


def _factory(connection, name, timeout):
    def remote(**arguments):
        try:
            reply = connection.call_tool(name, arguments, timeout=timeout)
        except Exception as exc:  # noqa: BLE001
            return ToolResult.fail(f"远程工具 {name} 没有调用成功：{exc}")
        return _read(name, reply)

    return remote


def adapt_server(connection, server, timeout=5.0):
    registry = ToolRegistry()
    for entry in connection.list_tools():
        safe = (entry.get("annotations") or {}).get("readOnlyHint") is True
        fields = {
            "name": entry["name"],
            "description": entry.get("description", ""),
            "parameters": entry["inputSchema"],
            "fn": _factory(connection, entry["name"], timeout),
            "level": "L1" if safe else "L2",
            "side_effects": not safe,
            "untrusted": True,
            "metadata": {"mcp_server": server, "mcp_name": entry["name"], "mcp_hash": definition_hash(entry)},
        }
        registry.register(Tool(**fields))
    return registry


ARGS = (adapt_server,)
