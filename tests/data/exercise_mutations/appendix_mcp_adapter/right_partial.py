"""Right, another style: functools.partial binds the name (positional-only parameters, so a tool
argument called "name" cannot clash), the schema is deep-copied, and the level comes from a dict."""

import copy
import json
from functools import partial

from handwritten_agent.mcp_tools.adapter import definition_hash
from handwritten_agent.tools import Tool, ToolRegistry, ToolResult

LEVEL = {True: "L1", False: "L2"}


def _call(connection, name, timeout, /, **arguments):
    try:
        reply = connection.call_tool(name, arguments, timeout=timeout)
    except Exception as exc:  # noqa: BLE001
        return ToolResult.fail("MCP 服务器没有完成 " + name + " 的调用：" + str(exc))
    text = "\n".join(b["text"] for b in reply.get("content", []) if b.get("type") == "text")
    if reply.get("isError"):
        return ToolResult.fail("工具 " + name + " 出错：" + text)
    try:
        return ToolResult.ok(json.loads(text))
    except ValueError:
        return ToolResult.ok(text)


def adapt_server(connection, server, timeout=10):
    registry = ToolRegistry()
    listing = connection.list_tools()
    for entry in listing:
        read_only = bool((entry.get("annotations") or {}).get("readOnlyHint") is True)
        item = Tool(
            name=entry["name"],
            description=entry.get("description", ""),
            parameters=copy.deepcopy(entry["inputSchema"]),
            fn=partial(_call, connection, entry["name"], timeout),
            level=LEVEL[read_only],
            side_effects=not read_only,
            untrusted=True,
        )
        item.metadata.update(
            mcp_server=server, mcp_name=entry["name"], mcp_hash=definition_hash(entry)
        )
        registry.register(item)
    return registry


ARGS = (adapt_server,)
