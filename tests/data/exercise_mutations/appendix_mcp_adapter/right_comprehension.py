"""Right, another style: a comprehension with a default-argument lambda to fix each name, errors
reported with the exception's own Chinese text only, and the hash computed from a trimmed entry."""

import json

from handwritten_agent.mcp_tools.adapter import definition_hash
from handwritten_agent.tools import Tool, ToolRegistry, ToolResult


def to_result(name, reply):
    blocks = [
        b for b in reply.get("content", []) if isinstance(b, dict) and b.get("type") == "text"
    ]
    text = "\n".join(str(b.get("text", "")) for b in blocks)
    if reply.get("isError"):
        return ToolResult.fail(f"服务器说工具 {name} 失败：{text}")
    try:
        return ToolResult.ok(json.loads(text))
    except ValueError:
        return ToolResult.ok(text)


def send(connection, name, timeout, arguments):
    try:
        return to_result(name, connection.call_tool(name, arguments, timeout=timeout))
    except Exception as exc:  # noqa: BLE001
        return ToolResult.fail(f"{name}：{exc}")


def adapt_server(connection, server, timeout=3.0):
    entries = list(connection.list_tools())
    return ToolRegistry(
        [
            Tool(
                name=e["name"],
                description=e.get("description", ""),
                parameters=e["inputSchema"],
                fn=lambda _n=e["name"], **arguments: send(connection, _n, timeout, arguments),
                level="L1" if e.get("annotations", {}).get("readOnlyHint") is True else "L2",
                side_effects=e.get("annotations", {}).get("readOnlyHint") is not True,
                untrusted=True,
                metadata={
                    "mcp_server": server,
                    "mcp_name": e["name"],
                    "mcp_hash": definition_hash(
                        {k: e.get(k) for k in ("name", "description", "inputSchema")}
                    ),
                },
            )
            for e in entries
        ]
    )


ARGS = (adapt_server,)
